output "vpc_id" {
  description = "The VPC's id."
  value       = aws_vpc.this.id
}

output "vpc_cidr_block" {
  value = aws_vpc.this.cidr_block
}

output "subnet_ids_by_tier" {
  description = "Subnet ids grouped by tier, in availability-zone order."
  value = {
    for tier_name in keys(var.subnet_tiers) : tier_name => [
      for zone in var.availability_zones : aws_subnet.this["${tier_name}/${zone}"].id
    ]
  }
}

output "public_subnet_ids" {
  value = [for key in local.public_subnet_keys : aws_subnet.this[key].id]
}

output "nat_public_ips" {
  description = "Addresses the private subnets reach the internet from; allow-list these."
  value       = values(aws_eip.nat)[*].public_ip
}

output "private_route_table_ids" {
  value = [for zone in var.availability_zones : aws_route_table.private[zone].id]
}

output "internet_gateway_id" {
  value = one(aws_internet_gateway.this[*].id)
}

output "flow_log_group" {
  value = var.enable_flow_logs ? aws_cloudwatch_log_group.flow_logs[0].name : null
}

output "endpoint_dns" {
  value = {
    for name, endpoint in aws_vpc_endpoint.this :
    name => try(endpoint.dns_entry[0].dns_name, null)
  }
  sensitive = false
}
