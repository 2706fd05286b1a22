terraform {
  required_version = "~> 1.7"

  backend "s3" {
    bucket         = "acme-terraform-state"
    key            = "platform/eu-west-1/terraform.tfstate"
    region         = "eu-west-1"
    dynamodb_table = "terraform-locks"
    encrypt        = true
  }

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.40"
    }
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6"
    }
  }
}

provider "aws" {
  region = var.region

  default_tags {
    tags = {
      Repository = "acme/platform"
      Workspace  = terraform.workspace
      ManagedBy  = "terraform"
    }
  }
}

provider "aws" {
  alias  = "us_east_1"
  region = "us-east-1"
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "environment" {
  type = string
}

variable "services" {
  type = map(object({
    image    = string
    replicas = optional(number, 1)
  }))
  default = {}
}

module "network" {
  source = "../network"

  name       = "platform-${var.environment}"
  cidr_block = "10.40.0.0/16"

  single_nat_gateway = var.environment != "prod"
  tags               = { Environment = var.environment }
}

module "database" {
  source = "../database"

  identifier              = "platform-${var.environment}"
  environment             = var.environment
  subnet_ids              = module.network.subnet_ids_by_tier["data"]
  allowed_security_groups = [for name, app in module.app : app.security_group_id]
}

module "app" {
  source   = "../compute"
  for_each = var.services

  environment = var.environment
  vpc_id      = module.network.vpc_id
  subnet_ids  = module.network.subnet_ids_by_tier["private"]

  app = {
    image = each.value.image
    env = {
      SERVICE_NAME = each.key
      DATABASE_URL = module.database.connection_string
    }
  }

  autoscaling = {
    min = each.value.replicas
    max = each.value.replicas * 3
  }
}

module "iam" {
  source  = "git::https://github.example.com/acme/terraform-iam.git//modules/deploy?ref=v3.2.0"
  service = "platform"
  region  = var.region

  account_id        = data.aws_caller_identity.current.account_id
  github_repository = "acme/platform"

  providers = {
    aws = aws
  }
}

module "certificate" {
  source  = "terraform-aws-modules/acm/aws"
  version = "~> 5.0"

  domain_name = "platform.example.com"
  zone_id     = data.aws_route53_zone.main.zone_id

  subject_alternative_names = ["*.platform.example.com"]

  providers = {
    aws = aws.us_east_1
  }
}

data "aws_caller_identity" "current" {}

data "aws_route53_zone" "main" {
  name = "example.com"
}

moved {
  from = module.app_api
  to   = module.app["api"]
}

import {
  to = module.network.aws_vpc.this
  id = "vpc-0f3c2a1b9d8e7f654"
}

removed {
  from = aws_instance.old_bastion
  lifecycle {
    destroy = false
  }
}

output "vpc_id" {
  value = module.network.vpc_id
}

output "app_asgs" {
  value = { for name, app in module.app : name => app.asg_name }
}

output "database_endpoint" {
  value     = module.database.endpoint
  sensitive = false
}
