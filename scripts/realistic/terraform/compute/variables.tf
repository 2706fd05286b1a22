variable "environment" {
  type = string

  validation {
    condition     = contains(["dev", "staging", "prod"], var.environment)
    error_message = "The environment must be one of dev, staging or prod."
  }
}

variable "instance_type" {
  type    = string
  default = "t3.medium"
}

variable "vpc_id" { type = string }
variable "subnet_ids" { type = list(string) }

variable "autoscaling" {
  type = object({
    min              = number
    max              = number
    desired          = optional(number)
    cpu_target       = optional(number, 60)
    warm_pool        = optional(bool, false)
    instance_refresh = optional(object({
      min_healthy_percentage = optional(number, 90)
      checkpoints            = optional(list(number), [])
    }))
  })
  default = {
    min = 2
    max = 6
  }

  validation {
    condition     = var.autoscaling.min <= var.autoscaling.max
    error_message = "autoscaling.min (${var.autoscaling.min}) must not be greater than autoscaling.max (${var.autoscaling.max})."
  }
}

variable "app" {
  description = "What the instances run: the container image and its settings."
  type = object({
    image       = string
    port        = optional(number, 8080)
    health_path = optional(string, "/healthz")
    env         = optional(map(string), {})
    secrets     = optional(map(string), {})
    volumes = optional(list(object({
      device = string
      mount  = string
      size   = optional(number, 20)
      fstype = optional(string, "xfs")
    })), [])
  })
  sensitive = false
}

variable "ssh_keys" {
  description = "Public keys installed for the ops user."
  type        = list(string)
  default     = []
}

variable "ingress" {
  type = list(object({
    description = string
    port        = number
    protocol    = optional(string, "tcp")
    cidr_blocks = optional(list(string), [])
    security_groups = optional(list(string), [])
  }))
  default = [
    {
      description = "Load balancer to the application"
      port        = 8080
    },
  ]
}

variable "extra_tags" {
  type    = map(string)
  default = { "cost-center" = "4711", "owner" = "team-platform" }
}
