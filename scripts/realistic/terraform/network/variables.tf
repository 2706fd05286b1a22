/*
 * Inputs of the network module.
 *
 * Every subnet tier is described by one object; optional attributes get
 * their defaults from the type constraint itself (Terraform 1.3+).
 */

variable "name" {
  type        = string
  description = "Prefix of every resource name, e.g. \"payments-prod\"."

  validation {
    condition     = length(var.name) > 2 && length(var.name) <= 24
    error_message = "The name must be 3 to 24 characters long."
  }
}

variable "cidr_block" {
  description = "The VPC's IPv4 range."
  type        = string
  default     = "10.40.0.0/16"

  validation {
    condition     = can(cidrhost(var.cidr_block, 0))
    error_message = "The cidr_block must be a valid IPv4 CIDR, like 10.0.0.0/16."
  }
}

variable "availability_zones" {
  type    = list(string)
  default = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
}

variable "subnet_tiers" {
  description = <<EOT
Subnet tiers to create in every availability zone. Each tier gets one
subnet per zone, carved out of the VPC range with `newbits` extra bits.
Set `public = true` for tiers that need a route to the internet gateway.
EOT
  type = map(object({
    newbits     = number
    netnum_base = number
    public      = optional(bool, false)
    nat         = optional(bool, false)
    tags        = optional(map(string), {})
    nacl_rules = optional(list(object({
      rule_number = number
      egress      = optional(bool, false)
      protocol    = optional(string, "tcp")
      action      = optional(string, "allow")
      cidr_block  = string
      from_port   = optional(number)
      to_port     = optional(number)
    })), [])
  }))
  default = {
    public = {
      newbits     = 8
      netnum_base = 0
      public      = true
    }
    private = {
      newbits     = 4
      netnum_base = 1
      nat         = true
    }
    data = {
      newbits     = 8
      netnum_base = 200
      nacl_rules = [
        { rule_number = 100, cidr_block = "10.40.0.0/16", from_port = 5432, to_port = 5432 },
        { rule_number = 200, cidr_block = "0.0.0.0/0", action = "deny", protocol = "-1" },
      ]
    }
  }

  validation {
    condition     = alltrue([for name, tier in var.subnet_tiers : tier.newbits >= 2 && tier.newbits <= 12])
    error_message = "Every tier's newbits must be between 2 and 12."
  }

  validation {
    condition = length([
      for tier in values(var.subnet_tiers) : tier if tier.public && tier.nat
    ]) == 0
    error_message = "A tier cannot be both public and behind a NAT gateway."
  }
}

variable "single_nat_gateway" {
  type     = bool
  default  = false
  nullable = false
}

variable "enable_flow_logs" {
  type    = bool
  default = true
}

variable "flow_log_retention_days" {
  type    = number
  default = 30

  validation {
    condition     = contains([1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1827, 3653], var.flow_log_retention_days)
    error_message = "Pick a retention period CloudWatch Logs supports (1, 3, 5, 7, 14, 30, 60, 90, ... days)."
  }
}

variable "tags" {
  type        = map(string)
  default     = {}
  description = "Tags added to every resource." # merged last, so they win
}

variable "endpoints" {
  description = "Gateway and interface endpoints; the key is the service name."
  type = map(object({
    type                = optional(string, "Interface")
    private_dns_enabled = optional(bool, true)
    policy              = optional(string)
  }))
  default = {
    s3       = { type = "Gateway" }
    dynamodb = { type = "Gateway" }
    "ecr.api" = {}
  }
}
