locals {
  name = "app-${var.environment}"

  is_prod = var.environment == "prod"

  desired_capacity = coalesce(var.autoscaling.desired, var.autoscaling.min)

  tags = merge(var.extra_tags, {
    Environment = var.environment
    Service     = "app"
  })

  # cloud-init: the template gets everything it needs explicitly.
  user_data = templatefile("${path.module}/templates/user_data.tftpl", {
    hostname_prefix = local.name
    image           = var.app.image
    port            = var.app.port
    env             = var.app.env
    secrets         = var.app.secrets
    volumes         = var.app.volumes
    ssh_keys        = var.ssh_keys
    log_level       = local.is_prod ? "warn" : "debug"
  })
}

data "aws_ami" "al2023" {
  most_recent = true
  owners      = ["amazon"]

  filter {
    name   = "name"
    values = ["al2023-ami-2023.*-x86_64"]
  }

  filter {
    name   = "architecture"
    values = ["x86_64"]
  }
}

resource "aws_security_group" "app" {
  name_prefix = "${local.name}-"
  description = "Application instances (${var.environment})"
  vpc_id      = var.vpc_id

  dynamic "ingress" {
    for_each = var.ingress
    content {
      description     = ingress.value.description
      from_port       = ingress.value.port
      to_port         = ingress.value.port
      protocol        = ingress.value.protocol
      cidr_blocks     = ingress.value.cidr_blocks
      security_groups = ingress.value.security_groups
    }
  }

  egress {
    from_port   = 0
    to_port     = 0
    protocol    = "-1"
    cidr_blocks = ["0.0.0.0/0"]
    description = "Everything out"
  }

  lifecycle {
    create_before_destroy = true
  }

  tags = local.tags
}

resource "aws_launch_template" "app" {
  name_prefix   = "${local.name}-"
  image_id      = data.aws_ami.al2023.id
  instance_type = var.instance_type
  user_data     = base64encode(local.user_data)

  vpc_security_group_ids = [aws_security_group.app.id]

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  dynamic "block_device_mappings" {
    for_each = var.app.volumes
    iterator = volume
    content {
      device_name = volume.value.device

      ebs {
        volume_size           = volume.value.size
        volume_type           = "gp3"
        encrypted             = true
        delete_on_termination = true
      }
    }
  }

  monitoring { enabled = local.is_prod }

  tag_specifications {
    resource_type = "instance"
    tags          = merge(local.tags, { Name = local.name })
  }

  tag_specifications {
    resource_type = "volume"
    tags          = local.tags
  }
}

resource "aws_autoscaling_group" "app" {
  name_prefix         = "${local.name}-"
  min_size            = var.autoscaling.min
  max_size            = var.autoscaling.max
  desired_capacity    = local.desired_capacity
  vpc_zone_identifier = var.subnet_ids
  health_check_type   = "ELB"
  target_group_arns   = [aws_lb_target_group.app.arn]

  launch_template {
    id      = aws_launch_template.app.id
    version = aws_launch_template.app.latest_version
  }

  dynamic "warm_pool" {
    for_each = var.autoscaling.warm_pool ? [true] : []
    content {
      pool_state                  = "Stopped"
      min_size                    = 1
      max_group_prepared_capacity = var.autoscaling.max
    }
  }

  dynamic "instance_refresh" {
    for_each = var.autoscaling.instance_refresh[*]
    content {
      strategy = "Rolling"
      preferences {
        min_healthy_percentage = instance_refresh.value.min_healthy_percentage
        checkpoint_percentages = instance_refresh.value.checkpoints
        checkpoint_delay       = length(instance_refresh.value.checkpoints) > 0 ? 300 : null
      }
    }
  }

  dynamic "tag" {
    for_each = merge(local.tags, { Name = local.name })
    content {
      key                 = tag.key
      value               = tag.value
      propagate_at_launch = true
    }
  }
}

resource "aws_autoscaling_policy" "cpu" {
  name                   = "${local.name}-cpu"
  autoscaling_group_name = aws_autoscaling_group.app.name
  policy_type            = "TargetTrackingScaling"

  target_tracking_configuration {
    predefined_metric_specification {
      predefined_metric_type = "ASGAverageCPUUtilization"
    }
    target_value = var.autoscaling.cpu_target
  }
}

resource "aws_lb_target_group" "app" {
  name_prefix = substr(var.environment, 0, 6)
  port        = var.app.port
  protocol    = "HTTP"
  vpc_id      = var.vpc_id

  health_check {
    path                = var.app.health_path
    matcher             = "200-299"
    interval            = local.is_prod ? 10 : 30
    healthy_threshold   = 2
    unhealthy_threshold = 3
  }

  deregistration_delay = local.is_prod ? 60 : 5
  tags                 = local.tags
}

output "security_group_id" { value = aws_security_group.app.id }
output "asg_name" { value = aws_autoscaling_group.app.name }
output "launch_template" {
  value = {
    id      = aws_launch_template.app.id
    version = aws_launch_template.app.latest_version
  }
}
