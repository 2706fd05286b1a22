variable "service" { type = string }
variable "region" { type = string }
variable "account_id" { type = string }

variable "artifact_bucket" {
  type    = string
  default = "acme-build-artifacts"
}

variable "ecr_repositories" {
  type    = list(string)
  default = ["api", "worker", "scheduler",]
}

variable "kms_key_arns" {
  type     = list(string)
  default  = []
  nullable = false
}

variable "github_repository" {
  type        = string
  description = "owner/name of the repository whose workflows may deploy"

  validation {
    condition     = can(regex("^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$", var.github_repository))
    error_message = "Use the form owner/name, e.g. acme/payments."
  }
}

variable "deploy_branches" {
  type    = set(string)
  default = ["main", "release/*"]
}

variable "denied_services" {
  type    = list(string)
  default = ["organizations", "account", "iam-identity-center"]
}

variable "trusted_role_arns" {
  description = "Roles in other accounts allowed to assume the deploy role."
  type        = list(string)
  default     = []

  validation {
    # provider-defined functions need Terraform 1.8 and AWS provider 5.40.
    condition = alltrue([
      for arn in var.trusted_role_arns : provider::aws::arn_parse(arn).service == "iam"
    ])
    error_message = "Each trusted role must be an IAM role ARN."
  }
}
