include "root" {
  path   = find_in_parent_folders("root.hcl")
  expose = true
}

include "envcommon" {
  path           = "${dirname(find_in_parent_folders("root.hcl"))}/_envcommon/app.hcl"
  merge_strategy = "deep"
}

terraform {
  source = "git::git@github.example.com:acme/infrastructure-modules.git//app?ref=v4.12.0"
}

dependency "vpc" {
  config_path = "../vpc"

  mock_outputs = {
    vpc_id             = "vpc-00000000"
    private_subnet_ids = ["subnet-00000000", "subnet-11111111"]
  }
  mock_outputs_allowed_terraform_commands = ["validate", "plan"]
}

dependency "database" {
  config_path  = "../database"
  skip_outputs = false
  mock_outputs = { endpoint = "db.mock.internal:5432" }
}

dependencies {
  paths = ["../vpc", "../database", "../../_global/iam"]
}

locals {
  replicas = include.root.locals.environment == "prod" ? 6 : 2
}

inputs = {
  vpc_id     = dependency.vpc.outputs.vpc_id
  subnet_ids = dependency.vpc.outputs.private_subnet_ids
  replicas   = local.replicas

  database_url = "postgres://app@${dependency.database.outputs.endpoint}/app"

  autoscaling = {
    min        = local.replicas
    max        = local.replicas * 2
    cpu_target = 55
  }

  feature_flags = {
    new_checkout = true
    dark_mode    = false
  }

  # A heredoc in a map: indented closing marker, as in most of our units.
  extra_user_data = <<EOT
    echo "app unit in ${include.root.locals.aws_region}" > /etc/motd
    EOT
}
