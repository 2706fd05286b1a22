// Cross-account trust, written for Terraform 1.8+: the AWS provider's
// functions take ARNs apart instead of regular expressions.

locals {
  trusted = [
    for arn in var.trusted_role_arns : {
      arn        = arn
      account_id = provider::aws::arn_parse(arn).account_id
      role_name  = trimprefix(provider::aws::arn_parse(arn).resource, "role/")
    }
  ]

  trusted_accounts = distinct([for t in local.trusted : t.account_id])

  deploy_role_arn = provider::aws::arn_build("aws", "iam", "", var.account_id, "role/${var.service}-deploy")
}

data "aws_iam_policy_document" "cross_account" {
  statement {
    effect  = "Allow"
    actions = ["sts:AssumeRole", "sts:TagSession"]

    principals {
      type        = "AWS"
      identifiers = local.trusted[*].arn
    }

    condition {
      test     = "StringEquals"
      variable = "aws:PrincipalAccount"
      values   = local.trusted_accounts
    }
  }
}

resource "aws_iam_role" "cross_account" {
  count              = length(local.trusted) > 0 ? 1 : 0
  name               = "${var.service}-cross-account"
  assume_role_policy = data.aws_iam_policy_document.cross_account.json

  tags = {
    TrustedRoles = join(",", [for t in local.trusted : t.role_name])
  }
}

check "deploy_role_matches" {
  assert {
    condition     = aws_iam_role.deploy.arn == local.deploy_role_arn
    error_message = "The deploy role's ARN is ${aws_iam_role.deploy.arn}, expected ${local.deploy_role_arn}."
  }
}

output "trusted_account_ids" {
  value = local.trusted_accounts
}
