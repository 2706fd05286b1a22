locals {
  environment_vars = read_terragrunt_config(find_in_parent_folders("env.hcl"))
  env              = local.environment_vars.locals.environment
  base_source_url  = "git::git@github.example.com:acme/infrastructure-modules.git//app"
}

terraform {
  source = "${local.base_source_url}?ref=v4.12.0"

  after_hook "notify" {
    commands     = ["apply"]
    execute      = ["sh", "-c", "curl -fsS -X POST -d '{\"text\":\"app applied in ${local.env}\"}' $SLACK_WEBHOOK || true"]
    run_on_error = false
  }
}

inputs = {
  name        = "app-${local.env}"
  environment = local.env
  app = {
    image       = "registry.example.com/acme/app:2024.06.1"
    port        = 8080
    health_path = "/healthz"
    env = {
      LOG_FORMAT = "json"
      REGION     = get_env("AWS_REGION", "eu-west-1")
    }
  }
}
