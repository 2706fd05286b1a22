# Naming and tagging conventions shared by every stack. Everything here is
# computed from literals, so it is the same in every workspace.

locals {
  organisation = "acme"
  regions = {
    "eu-west-1"    = { short = "euw1", primary = true, zones = ["a", "b", "c"] }
    "eu-central-1" = { short = "euc1", primary = false, zones = ["a", "b"] }
    "us-east-1"    = { short = "use1", primary = false, zones = ["a", "b", "c", "d", "f"] }
  }

  environments = [
    { name = "dev", tier = 3, owners = ["team-platform"], on_call = false },
    { name = "staging", tier = 2, owners = ["team-platform", "team-qa"], on_call = false },
    { name = "prod", tier = 1, owners = ["team-platform", "team-sre"], on_call = true },
  ]

  # Region names in lexical order, and which one is primary.
  region_names   = keys(local.regions)
  primary_region = [for name, r in local.regions : name if r.primary][0]
  short_names    = [for name in local.region_names : local.regions[name].short]
}

locals {
  env_names        = local.environments[*].name
  on_call_envs     = [for e in local.environments : e.name if e.on_call]
  owners_by_env    = { for e in local.environments : e.name => join(",", e.owners) }
  highest_tier     = min(local.environments[*].tier...)
  lowest_tier      = max(local.environments[*].tier...)
  environment_tags = { for e in local.environments : upper(e.name) => e.tier == 1 ? "critical" : "standard" }

  zone_counts = { for name, r in local.regions : r.short => length(r.zones) }
  total_zones = length(concat(local.regions["eu-west-1"].zones, local.regions["eu-central-1"].zones, local.regions["us-east-1"].zones))

  name_prefixes = {
    for pair in [for e in local.environments : { env = e.name, region = local.primary_region }] :
    pair.env => lower("${local.organisation}-${pair.env}-${local.regions[pair.region].short}")
  }

  # Grouping mode: owners listed once per team.
  envs_by_owner = {
    for pair in concat([for e in local.environments : [for o in e.owners : { owner = o, env = e.name }]]...) :
    pair.owner => pair.env...
  }

  fallback_contact = coalesce(null, "", "platform@acme.example")
  empty_or_list    = length(local.on_call_envs) > 0 ? local.on_call_envs : []
  maybe_map        = local.organisation == "acme" ? local.zone_counts : {}
  nested_ternary   = local.highest_tier == 1 ? "one" : local.highest_tier == 2 ? "two" : "other"
  arithmetic       = (local.total_zones * 2 + 1) % 4 - -3 / 2
  comparisons      = [1 < 2, 2 <= 2, "a" == "a", true != false, !(3 > 4) && (1 >= 1 || false)]
  abs_values       = [abs(-4.5), abs(0), abs(12)]
  splat_of_tuple   = [{ a = 1 }, { a = 2 }][*].a
  splat_of_object  = { a = 1 }[*].a
  index_of_splat   = local.environments[*].owners[0]
  legacy_index     = local.environments.0.name
  legacy_splat     = local.environments.*.tier
  keys_of_object   = keys({ zulu = 1, alpha = 2, "mike" = 3 })
}
