environment        = "dev"
region             = "eu-west-1"
single_nat_gateway = true
instance_type      = "t3.medium"

autoscaling = { min = 1, max = 2 }

services = {
  api    = { image = "registry.example.com/acme/api:main", replicas = 1 }
  worker = { image = "registry.example.com/acme/worker:main" }
}

# Developers' own keys; nobody else logs in to dev.
ssh_keys = []

app_env = {
  LOG_LEVEL        = "debug"
  FEATURE_CHECKOUT = "true"
  "DATABASE_POOL"  = "5"
  "OTEL_EXPORTER_OTLP_ENDPOINT" = "http://otel-collector.observability:4317"
}

motd = <<EOT
This is the DEV environment.
Data here is synthetic and is reset every Monday at 06:00 UTC.
EOT

banner = <<-EOT
  ┌──────────────────────────────┐
  │  acme platform — development │
  └──────────────────────────────┘
EOT

allowed_cidrs = [
  "10.0.0.0/8",     # office VPN
  "192.168.0.0/16", // home lab
  /* CI runners */ "172.16.0.0/12",
]

feature_flags = {
  dark_mode      = true
  new_checkout   = true
  beta_reporting = false
}

empty_map    = {}
empty_list   = []
null_value   = null
nested_empty = { a = [], b = {}, c = [{}] }
