# Set common variables for the environment. This is automatically pulled in
# by the root configuration to feed forward to the child units.
locals {
  environment = "prod"
  cost_center = "CC-1042"
  on_call     = true
  tiers       = ["web", "api", "worker"]
  cidr_by_tier = {
    web    = "10.10.0.0/20"
    api    = "10.10.16.0/20"
    worker = "10.10.32.0/20"
  }
  tier_count   = length(local.tiers)
  tier_summary = join(", ", [for t in local.tiers : "${t}=${local.cidr_by_tier[t]}"])
}
