variable "identifier" {
  type = string
}

variable "engine_version" {
  type    = string
  default = "16.2"
}

variable "instance_class" {
  type    = string
  default = "db.r6g.large"
}

variable "allocated_storage" {
  type    = number
  default = 100
}

variable "multi_az" {
  type    = bool
  default = null
}

variable "subnet_ids" {
  type = list(string)
}

variable "allowed_security_groups" {
  type    = list(string)
  default = []
}

variable "parameters" {
  type = list(object({
    name         = string
    value        = string
    apply_method = optional(string, "pending-reboot")
  }))
  default = [
    { name = "log_min_duration_statement", value = "500" },
    { name = "shared_preload_libraries", value = "pg_stat_statements", apply_method = "pending-reboot" },
    { name = "rds.force_ssl", value = "1" },
  ]
}

variable "environment" {
  type = string
}

locals {
  is_prod      = var.environment == "prod"
  multi_az     = coalesce(var.multi_az, local.is_prod)
  major        = split(".", var.engine_version)[0]
  family       = "postgres${local.major}"
  backup_days  = local.is_prod ? 14 : 1
  final_snap   = local.is_prod ? "${var.identifier}-final" : null
  port         = 5432
  ingress_from = concat(var.allowed_security_groups, [])
}

resource "aws_db_subnet_group" "this" {
  name       = var.identifier
  subnet_ids = var.subnet_ids
}

resource "aws_db_parameter_group" "this" {
  name_prefix = "${var.identifier}-"
  family      = local.family

  dynamic "parameter" {
    for_each = var.parameters
    content {
      name         = parameter.value.name
      value        = parameter.value.value
      apply_method = parameter.value.apply_method
    }
  }

  lifecycle { create_before_destroy = true }
}

resource "aws_security_group" "db" {
  name_prefix = "${var.identifier}-db-"
  vpc_id      = data.aws_subnet.first.vpc_id
}

resource "aws_security_group_rule" "ingress" {
  count = length(local.ingress_from)

  type                     = "ingress"
  from_port                = local.port
  to_port                  = local.port
  protocol                 = "tcp"
  security_group_id        = aws_security_group.db.id
  source_security_group_id = local.ingress_from[count.index]
  description              = "PostgreSQL from ${local.ingress_from[count.index]}"
}

data "aws_subnet" "first" {
  id = var.subnet_ids[0]
}

resource "random_password" "master" {
  length           = 32
  special          = true
  override_special = "!#$%&*()-_=+[]{}<>:?"
}

resource "aws_db_instance" "this" {
  identifier                  = var.identifier
  engine                      = "postgres"
  engine_version              = var.engine_version
  instance_class              = var.instance_class
  allocated_storage           = var.allocated_storage
  max_allocated_storage       = var.allocated_storage * 4
  storage_type                = "gp3"
  storage_encrypted           = true
  db_subnet_group_name        = aws_db_subnet_group.this.name
  parameter_group_name        = aws_db_parameter_group.this.name
  vpc_security_group_ids      = [aws_security_group.db.id]
  multi_az                    = local.multi_az
  username                    = "app_admin"
  password                    = random_password.master.result
  port                        = local.port
  backup_retention_period     = local.backup_days
  backup_window               = "02:00-03:00"
  maintenance_window          = "sun:03:30-sun:04:30"
  deletion_protection         = local.is_prod
  skip_final_snapshot         = !local.is_prod
  final_snapshot_identifier   = local.final_snap
  performance_insights_enabled = true
  apply_immediately           = !local.is_prod
  copy_tags_to_snapshot       = true

  enabled_cloudwatch_logs_exports = ["postgresql", "upgrade"]

  timeouts {
    create = "60m"
    update = "80m"
    delete = "60m"
  }

  lifecycle {
    ignore_changes  = [password]
    prevent_destroy = false
  }
}

resource "aws_db_instance" "replica" {
  count               = local.is_prod ? 1 : 0
  identifier          = "${var.identifier}-replica-${count.index}"
  replicate_source_db = aws_db_instance.this.identifier
  instance_class      = var.instance_class
  skip_final_snapshot = true
}

output "endpoint" {
  value = aws_db_instance.this.endpoint
}

output "replica_endpoints" {
  value = aws_db_instance.replica[*].endpoint
}

output "connection_string" {
  value     = "postgresql://${aws_db_instance.this.username}@${aws_db_instance.this.address}:${local.port}/postgres?sslmode=require"
  sensitive = true
}
