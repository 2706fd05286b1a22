# terraform test: plan-only checks of the network module.

variables {
  name       = "unit-test"
  cidr_block = "10.99.0.0/16"
  tags       = { Purpose = "terraform test" }
}

provider "aws" {
  region                      = "eu-west-1"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  access_key                  = "mock_access_key"
  secret_key                  = "mock_secret_key"
}

run "default_tiers" {
  command = plan

  assert {
    condition     = length(aws_subnet.this) == 9
    error_message = "Expected 3 tiers x 3 zones = 9 subnets, got ${length(aws_subnet.this)}."
  }

  assert {
    condition     = aws_subnet.this["public/eu-west-1a"].map_public_ip_on_launch == true
    error_message = "Public subnets must map public IPs."
  }
}

run "single_nat" {
  command = plan

  variables {
    single_nat_gateway = true
  }

  assert {
    condition     = length(aws_nat_gateway.this) == 1
    error_message = "single_nat_gateway = true must create exactly one NAT gateway."
  }
}

run "rejects_short_names" {
  command = plan

  variables {
    name = "ab"
  }

  expect_failures = [
    var.name,
  ]
}

run "no_flow_logs" {
  command = plan
  variables { enable_flow_logs = false }

  assert {
    condition     = length(aws_flow_log.this) == 0 && output.flow_log_group == null
    error_message = "Flow logs were created although disabled."
  }
}
