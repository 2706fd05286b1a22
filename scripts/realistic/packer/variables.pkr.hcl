variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "copy_to_regions" {
  type        = list(string)
  default     = ["eu-central-1", "us-east-1"]
  description = "Regions the finished image is copied to."
}

variable "instance_type" {
  type    = string
  default = "t3.small"
}

variable "hardening_level" {
  type    = number
  default = 2

  validation {
    condition     = var.hardening_level >= 1 && var.hardening_level <= 3
    error_message = "The hardening level is 1 (basic), 2 (CIS level 1) or 3 (CIS level 2)."
  }
}

variable "winrm_password" {
  type      = string
  sensitive = true
  default   = null
}

variable "vsphere" {
  type = object({
    server     = string
    datacenter = string
    cluster    = string
    datastore  = string
    network    = string
  })
  default = {
    server     = "vcenter.lab.example.internal"
    datacenter = "LAB"
    cluster    = "compute-01"
    datastore  = "vsan-01"
    network    = "VM Network"
  }
}
