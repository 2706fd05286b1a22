# Policies for the deploy pipeline. Most of them are heredocs, written the
# way different people on the team write them.

resource "aws_iam_policy" "artifact_read" {
  name        = "artifact-read"
  description = "Read build artifacts from the artifact bucket"

  policy = <<POLICY
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Sid": "ListBucket",
      "Effect": "Allow",
      "Action": ["s3:ListBucket"],
      "Resource": "arn:aws:s3:::${var.artifact_bucket}"
    },
    {
      "Sid": "ReadObjects",
      "Effect": "Allow",
      "Action": ["s3:GetObject", "s3:GetObjectVersion"],
      "Resource": "arn:aws:s3:::${var.artifact_bucket}/*"
    }
  ]
}
POLICY
}

resource "aws_iam_policy" "ecr_push" {
  name = "ecr-push"

  # Closing marker indented like the attribute.
  policy = <<EOF
    {
      "Version": "2012-10-17",
      "Statement": [
        {
          "Effect": "Allow",
          "Action": [
            "ecr:BatchCheckLayerAvailability",
            "ecr:CompleteLayerUpload",
            "ecr:InitiateLayerUpload",
            "ecr:PutImage",
            "ecr:UploadLayerPart"
          ],
          "Resource": [
            %{~ for repo in var.ecr_repositories ~}
            "arn:aws:ecr:${var.region}:${var.account_id}:repository/${repo}",
            %{~ endfor ~}
            "arn:aws:ecr:${var.region}:${var.account_id}:repository/base-images"
          ]
        },
        {
          "Effect": "Allow",
          "Action": "ecr:GetAuthorizationToken",
          "Resource": "*"
        }
      ]
    }
    EOF
}

resource "aws_iam_policy" "kms_decrypt" {
  name = "kms-decrypt"

  policy = <<-JSON
	{
	  "Version": "2012-10-17",
	  "Statement": [{
	    "Effect": "Allow",
	    "Action": ["kms:Decrypt", "kms:DescribeKey"],
	    "Resource": ${jsonencode(var.kms_key_arns)},
	    "Condition": {
	      "StringEquals": { "kms:ViaService": "secretsmanager.${var.region}.amazonaws.com" }
	    }
	  }]
	}
	JSON
}

resource "aws_iam_policy" "ssm_parameters" {
  name = "ssm-parameters"

  # The marker is followed by two spaces (an editor that does not trim).
  policy = <<EOT
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": ["ssm:GetParameter", "ssm:GetParametersByPath"],
      "Resource": "arn:aws:ssm:${var.region}:${var.account_id}:parameter/${var.service}/*"
    }
  ]
}
EOT  
}

data "aws_iam_policy_document" "assume_from_ci" {
  statement {
    sid     = "GitHubActions"
    effect  = "Allow"
    actions = ["sts:AssumeRoleWithWebIdentity"]

    principals {
      type        = "Federated"
      identifiers = ["arn:aws:iam::${var.account_id}:oidc-provider/token.actions.githubusercontent.com"]
    }

    condition {
      test     = "StringEquals"
      variable = "token.actions.githubusercontent.com:aud"
      values   = ["sts.amazonaws.com"]
    }

    condition {
      test     = "StringLike"
      variable = "token.actions.githubusercontent.com:sub"
      values   = [for branch in var.deploy_branches : "repo:${var.github_repository}:ref:refs/heads/${branch}"]
    }
  }
}

data "aws_iam_policy_document" "boundary" {
  dynamic "statement" {
    for_each = var.denied_services
    content {
      sid       = "Deny${title(replace(statement.value, "-", ""))}"
      effect    = "Deny"
      actions   = ["${statement.value}:*"]
      resources = ["*"]
    }
  }

  statement {
    sid       = "AllowEverythingElse"
    effect    = "Allow"
    actions   = ["*"]
    resources = ["*"]
  }
}

resource "aws_iam_role" "deploy" {
  name                 = "${var.service}-deploy"
  assume_role_policy   = data.aws_iam_policy_document.assume_from_ci.json
  permissions_boundary = aws_iam_policy.boundary.arn
  max_session_duration = 3600
}

resource "aws_iam_policy" "boundary" {
  name   = "${var.service}-boundary"
  policy = data.aws_iam_policy_document.boundary.json
}

resource "aws_iam_role_policy_attachment" "deploy" {
  for_each = {
    artifacts = aws_iam_policy.artifact_read.arn
    ecr       = aws_iam_policy.ecr_push.arn
    kms       = aws_iam_policy.kms_decrypt.arn
    ssm       = aws_iam_policy.ssm_parameters.arn
  }
  role       = aws_iam_role.deploy.name
  policy_arn = each.value
}
