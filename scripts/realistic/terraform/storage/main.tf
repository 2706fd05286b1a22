# Saved on Windows: every line ends with CR LF, heredocs included.

variable "buckets" {
  description = "Buckets to create; the key is the bucket name's suffix."
  type = map(object({
    versioning     = optional(bool, true)
    expire_days    = optional(number)
    archive_days   = optional(number)
    public_website = optional(bool, false)
    cors_origins   = optional(list(string), [])
  }))
}

variable "prefix" {
  type    = string
  default = "acme-eu"
}

resource "aws_s3_bucket" "this" {
  for_each      = var.buckets
  bucket        = "${var.prefix}-${each.key}"
  force_destroy = false
  tags          = { Bucket = each.key }
}

resource "aws_s3_bucket_versioning" "this" {
  for_each = { for k, v in var.buckets : k => v if v.versioning }
  bucket   = aws_s3_bucket.this[each.key].id

  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "this" {
  for_each = {
    for k, v in var.buckets : k => v
    if v.expire_days != null || v.archive_days != null
  }
  bucket = aws_s3_bucket.this[each.key].id

  rule {
    id     = "default"
    status = "Enabled"

    filter {}

    dynamic "transition" {
      for_each = each.value.archive_days == null ? [] : [each.value.archive_days]
      content {
        days          = transition.value
        storage_class = "GLACIER_IR"
      }
    }

    dynamic "expiration" {
      for_each = each.value.expire_days[*]
      content {
        days = expiration.value
      }
    }

    noncurrent_version_expiration {
      noncurrent_days = 90
    }
  }
}

resource "aws_s3_bucket_cors_configuration" "this" {
  for_each = { for k, v in var.buckets : k => v if length(v.cors_origins) > 0 }
  bucket   = aws_s3_bucket.this[each.key].id

  cors_rule {
    allowed_methods = ["GET", "HEAD"]
    allowed_origins = each.value.cors_origins
    max_age_seconds = 3000
  }
}

resource "aws_s3_bucket_policy" "website" {
  for_each = { for k, v in var.buckets : k => v if v.public_website }
  bucket   = aws_s3_bucket.this[each.key].id

  policy = <<EOF
{
  "Version": "2012-10-17",
  "Statement": [{
    "Sid": "PublicRead",
    "Effect": "Allow",
    "Principal": "*",
    "Action": "s3:GetObject",
    "Resource": "${aws_s3_bucket.this[each.key].arn}/*"
  }]
}
EOF
}

resource "aws_s3_object" "index" {
  for_each     = { for k, v in var.buckets : k => v if v.public_website }
  bucket       = aws_s3_bucket.this[each.key].id
  key          = "index.html"
  content_type = "text/html; charset=utf-8"

  content = <<-HTML
    <!doctype html>
    <html lang="en">
      <head><title>${each.key}</title></head>
      <body>
        <p>Nothing here yet.</p>
      </body>
    </html>
  HTML
}

output "bucket_arns" {
  value = { for k, b in aws_s3_bucket.this : k => b.arn }
}
