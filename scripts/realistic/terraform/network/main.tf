locals {
  zone_count = length(var.availability_zones)

  # One entry per (tier, zone) pair, keyed "tier/zone" so that adding a zone
  # does not renumber the subnets of the other zones.
  subnets = merge([
    for tier_name, tier in var.subnet_tiers : {
      for index, zone in var.availability_zones :
      "${tier_name}/${zone}" => {
        tier   = tier_name
        zone   = zone
        cidr   = cidrsubnet(var.cidr_block, tier.newbits, tier.netnum_base + index)
        public = tier.public
        nat    = tier.nat
        tags   = tier.tags
      }
    }
  ]...)

  public_subnet_keys = sort([for key, subnet in local.subnets : key if subnet.public])
  nat_zones          = var.single_nat_gateway ? slice(var.availability_zones, 0, 1) : var.availability_zones

  common_tags = merge(
    {
      "terraform"   = "true"
      "module"      = "network"
      "environment" = terraform.workspace
    },
    var.tags,
  )
}

resource "aws_vpc" "this" {
  cidr_block           = var.cidr_block
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = merge(local.common_tags, { Name = var.name })
}

resource "aws_internet_gateway" "this" {
  count  = length(local.public_subnet_keys) > 0 ? 1 : 0
  vpc_id = aws_vpc.this.id
  tags   = merge(local.common_tags, { Name = "${var.name}-igw" })
}

resource "aws_subnet" "this" {
  for_each = local.subnets

  vpc_id                  = aws_vpc.this.id
  cidr_block              = each.value.cidr
  availability_zone       = each.value.zone
  map_public_ip_on_launch = each.value.public

  tags = merge(
    local.common_tags,
    each.value.tags,
    {
      Name = "${var.name}-${each.value.tier}-${substr(each.value.zone, -1, 1)}"
      Tier = each.value.tier
    },
  )
}

resource "aws_eip" "nat" {
  for_each = toset(local.nat_zones)
  domain   = "vpc"
  tags     = merge(local.common_tags, { Name = "${var.name}-nat-${each.key}" })

  depends_on = [aws_internet_gateway.this]
}

resource "aws_nat_gateway" "this" {
  for_each      = aws_eip.nat
  allocation_id = each.value.id
  subnet_id     = aws_subnet.this["public/${each.key}"].id
  tags          = merge(local.common_tags, { Name = "${var.name}-nat-${each.key}" })
}

resource "aws_route_table" "public" {
  count  = length(aws_internet_gateway.this)
  vpc_id = aws_vpc.this.id

  route {
    cidr_block = "0.0.0.0/0"
    gateway_id = aws_internet_gateway.this[0].id
  }

  tags = merge(local.common_tags, { Name = "${var.name}-public" })
}

resource "aws_route_table" "private" {
  for_each = toset(var.availability_zones)
  vpc_id   = aws_vpc.this.id

  dynamic "route" {
    # With a single NAT gateway every zone routes through the first one.
    for_each = length(aws_nat_gateway.this) > 0 ? [1] : []
    content {
      cidr_block     = "0.0.0.0/0"
      nat_gateway_id = var.single_nat_gateway ? aws_nat_gateway.this[local.nat_zones[0]].id : aws_nat_gateway.this[each.key].id
    }
  }

  tags = merge(local.common_tags, { Name = "${var.name}-private-${each.key}" })
}

resource "aws_route_table_association" "this" {
  for_each = local.subnets

  subnet_id      = aws_subnet.this[each.key].id
  route_table_id = each.value.public ? aws_route_table.public[0].id : aws_route_table.private[each.value.zone].id
}

resource "aws_network_acl" "tier" {
  for_each   = { for name, tier in var.subnet_tiers : name => tier if length(tier.nacl_rules) > 0 }
  vpc_id     = aws_vpc.this.id
  subnet_ids = [for key, subnet in aws_subnet.this : subnet.id if local.subnets[key].tier == each.key]

  dynamic "ingress" {
    for_each = [for rule in each.value.nacl_rules : rule if !rule.egress]
    iterator = rule
    content {
      rule_no    = rule.value.rule_number
      protocol   = rule.value.protocol
      action     = rule.value.action
      cidr_block = rule.value.cidr_block
      from_port  = coalesce(rule.value.from_port, 0)
      to_port    = coalesce(rule.value.to_port, 0)
    }
  }

  dynamic "egress" {
    for_each = [for rule in each.value.nacl_rules : rule if rule.egress]
    content {
      rule_no    = egress.value.rule_number
      protocol   = egress.value.protocol
      action     = egress.value.action
      cidr_block = egress.value.cidr_block
      from_port  = coalesce(egress.value.from_port, 0)
      to_port    = coalesce(egress.value.to_port, 0)
    }
  }

  tags = merge(local.common_tags, { Name = "${var.name}-${each.key}" })
}

resource "aws_vpc_endpoint" "this" {
  for_each = var.endpoints

  vpc_id              = aws_vpc.this.id
  service_name        = "com.amazonaws.${data.aws_region.current.name}.${each.key}"
  vpc_endpoint_type   = each.value.type
  private_dns_enabled = each.value.type == "Interface" ? each.value.private_dns_enabled : null
  policy              = each.value.policy
  route_table_ids     = each.value.type == "Gateway" ? [for table in aws_route_table.private : table.id] : null
  subnet_ids          = each.value.type == "Interface" ? [for key, subnet in aws_subnet.this : subnet.id if local.subnets[key].tier == "private"] : null

  tags = merge(local.common_tags, { Name = "${var.name}-${replace(each.key, ".", "-")}" })
}

data "aws_region" "current" {}
