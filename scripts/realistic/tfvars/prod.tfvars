# Production values for the platform stack.
environment = "prod"
region      = "eu-west-1"

availability_zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
single_nat_gateway = false

instance_type = "m6i.large"

autoscaling = {
  min              = 3
  max              = 12
  desired          = 4
  cpu_target       = 55
  warm_pool        = true
  instance_refresh = {
    min_healthy_percentage = 90
    checkpoints            = [25, 50, 100]
  }
}

services = {
  api = {
    image    = "registry.example.com/acme/api@sha256:3f1c0e9a8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e"
    replicas = 4
  }
  worker = {
    image    = "registry.example.com/acme/worker:2024.06.1"
    replicas = 2
  }
  "scheduler" = { image = "registry.example.com/acme/scheduler:2024.06.1" },
}

subnet_tiers = {
  public  = { newbits = 8, netnum_base = 0, public = true }
  private = { newbits = 4, netnum_base = 1, nat = true }
  data = {
    newbits     = 8
    netnum_base = 200
    tags        = { "backup" = "daily" }
    nacl_rules = [
      { rule_number = 100, cidr_block = "10.40.0.0/16", from_port = 5432, to_port = 5432 },
      { rule_number = 110, cidr_block = "10.40.0.0/16", from_port = 6379, to_port = 6379 },
      { rule_number = 200, cidr_block = "0.0.0.0/0", action = "deny", protocol = "-1" },
    ]
  }
}

flow_log_retention_days = 365

ssh_keys = [
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk3xQ9b2cT7mR1vW8pL5nY0sD4fG6hJ2kZ9aX3eC7uB ops@laptop-anna",
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIF2oP8qW5eR3tY6uI9oA1sD4fG7hJ0kL3zX6cV9bN2mQ ops@laptop-jonas",
]

tags = {
  CostCenter  = "CC-1042"
  Compliance  = "pci-dss"
  DataClass   = "confidential"
  Owner       = "team-platform@acme.example"
}

alarm_thresholds = {
  latency_p99 = {
    metric    = "TargetResponseTime"
    statistic = "p99"
    threshold = 0.75
    runbook   = "https://wiki.example.com/runbooks/latency"
  }
  errors_5xx = {
    metric     = "HTTPCode_Target_5XX_Count"
    statistic  = "Sum"
    threshold  = 25
    evaluation = 3
  }
  unhealthy = {
    metric     = "UnHealthyHostCount"
    threshold  = 0
    comparison = "GreaterThanThreshold"
  }
}

maintenance_window = "sun:03:30-sun:04:30"
deletion_protection = true
backup_retention    = 14
max_session_hours   = 1.5
log_sample_rate     = 0.05
large_number        = 9007199254740993
negative_offset     = -12
