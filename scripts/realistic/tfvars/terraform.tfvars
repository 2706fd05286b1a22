name       = "payments"
cidr_block = "10.60.0.0/16"

endpoints = {
  s3          = { type = "Gateway" }
  dynamodb    = { type = "Gateway" }
  "ecr.api"   = {}
  "ecr.dkr"   = {}
  logs        = { private_dns_enabled = true }
  sts         = {}
  "secretsmanager" = {
    policy = <<POLICY
{
  "Statement": [{
    "Effect": "Allow",
    "Principal": "*",
    "Action": "secretsmanager:GetSecretValue",
    "Resource": "*",
    "Condition": { "StringEquals": { "aws:PrincipalOrgID": "o-a1b2c3d4e5" } }
  }]
}
POLICY
  }
}

ecr_repositories = ["payments-api", "payments-worker", "payments-migrations"]
deploy_branches  = ["main", "hotfix/*"]
kms_key_arns = [
  "arn:aws:kms:eu-west-1:123456789012:key/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
]
