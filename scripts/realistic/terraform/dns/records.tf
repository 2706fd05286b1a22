/* DNS for the public zone.
   Records are grouped by purpose; MX and TXT records come from the mail
   provider's onboarding page. */

variable "zone_name" { default = "example.com" }
variable "ttl" { default = 300 }
variable "web_ips" {
  type    = list(string)
  default = ["203.0.113.10", "203.0.113.11", ]
}

// Everything the mail provider asked for.
variable "mail" {
  type = object({ mx = list(string), spf = string, dkim_selector = string, dkim_key = string })
  default = {
    mx            = ["10 mx1.mail.example.net.", "20 mx2.mail.example.net."]
    spf           = "v=spf1 include:_spf.mail.example.net ~all"
    dkim_selector = "s2024"
    # DKIM keys are longer than 255 characters and must be split into quoted chunks.
    dkim_key = "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu5xq0Jq9v2a8X3tC9dM1r7pYw6ZbLk4sN8eF0hG2jK3lM4nO5pQ6rS7tU8vW9xY0zA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1vW2xY3zA4bC5dE6fG7hI8jK9lM0nO1pQ2rS3tU4vW5xY6zA7bC8dE9fG0hI1jK2lM3nO4pQ5rS6tU7vW8xY9zA0bC1dE2fG3hI4jK5lM6nO7pQ8rS9tU0vW1xY2zA3bC4dE5fG6hI7jK8lM9nO0pQ1rS2tU3vW4xY5zA6bC7dE8fG9hI0jK1lM2nO3pQ4rS5tU6vW7xY8zA9bC0dE1fG2hI3jK4lM5nO6pQ7rS8tU9vW0xY1zA2bC3dE4fG5hI6jK7lM8nO9pQ0rS1tU2vW3xY4zA5bC6dE7fG8hI9jK0lM1nO2pQ3rS4tU5vW6xY7zA8bC9dE0fG1hI2jK3lM4nO5pQ6rS7tU8vW9xY0zA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1vW2xY3IDAQAB"
  }
}

data "aws_route53_zone" "public" {
  name         = "${var.zone_name}."
  private_zone = false
}

resource "aws_route53_record" "apex" {
  zone_id = data.aws_route53_zone.public.zone_id
  name    = var.zone_name
  type    = "A"
  ttl     = var.ttl
  records = var.web_ips
}

resource "aws_route53_record" "www" {
  count   = length(var.web_ips) > 0 ? 1 : 0
  zone_id = data.aws_route53_zone.public.zone_id
  name    = "www.${var.zone_name}"
  type    = "CNAME"
  ttl     = var.ttl
  records = [aws_route53_record.apex.name]
}

resource "aws_route53_record" "mx" {
  zone_id = data.aws_route53_zone.public.zone_id
  name    = var.zone_name
  type    = "MX"
  ttl     = 3600
  records = var.mail.mx
}

resource "aws_route53_record" "txt" {
  zone_id = data.aws_route53_zone.public.zone_id
  name    = var.zone_name
  type    = "TXT"
  ttl     = 3600
  records = [
    var.mail.spf,
    "google-site-verification=Zx8mQ1vR4tY7uI0oP3aS6dF9gH2jK5lL8zX1cV4bN7m",
  ]
}

resource "aws_route53_record" "dkim" {
  zone_id = data.aws_route53_zone.public.zone_id
  name    = "${var.mail.dkim_selector}._domainkey.${var.zone_name}"
  type    = "TXT"
  ttl     = 3600
  # Route 53 wants chunks of at most 255 characters, joined by "" (quote, quote).
  records = [join("\"\"", [substr(var.mail.dkim_key, 0, 255), substr(var.mail.dkim_key, 255, -1)])]
}

resource "aws_route53_record" "caa" {
  zone_id = data.aws_route53_zone.public.zone_id
  name    = var.zone_name
  type    = "CAA"
  ttl     = 3600
  records = [
    "0 issue \"amazon.com\"",
    "0 issue \"letsencrypt.org\"",
    "0 iodef \"mailto:security@${var.zone_name}\"",
  ]
}

# Legacy forms kept from the 0.11 version of this file.
output "www_fqdn" { value = "${aws_route53_record.www.0.fqdn}" }
output "name_servers" { value = data.aws_route53_zone.public.name_servers }
output "all_record_names" {
  value = concat(
    [aws_route53_record.apex.name, aws_route53_record.mx.name],
    aws_route53_record.www.*.name,
    aws_route53_record.www[*].fqdn,
  )
}
