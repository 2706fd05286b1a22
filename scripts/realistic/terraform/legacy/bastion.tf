# The bastion host. Its heredocs were indented along with the code by an
# editor's auto-format, closing markers included; Terraform has always
# accepted that.

resource "aws_instance" "bastion" {
  ami                         = "${lookup(var.amis, var.region)}"
  instance_type               = "t3.nano"
  subnet_id                   = "${aws_subnet.web.0.id}"
  associate_public_ip_address = true
  key_name                    = "${aws_key_pair.ops.key_name}"

  user_data = <<EOF
    #!/bin/bash
    set -e
    yum -y update
    yum -y install fail2ban
    systemctl enable --now fail2ban
    EOF

  tags {
    Name = "bastion"
  }
}

resource "aws_key_pair" "ops" {
  key_name   = "ops"
  public_key = "${file("${path.module}/keys/ops.pub")}"
}

resource "aws_cloudwatch_metric_alarm" "bastion_cpu" {
  alarm_name          = "bastion-cpu-high"
  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = "2"
  metric_name         = "CPUUtilization"
  namespace           = "AWS/EC2"
  period              = "300"
  statistic           = "Average"
  threshold           = "80"

  alarm_description = <<DESCRIPTION
      The bastion's CPU has been above 80% for ten minutes.
      Someone may be brute-forcing SSH: check /var/log/secure.
  DESCRIPTION

  dimensions {
    InstanceId = "${aws_instance.bastion.id}"
  }
}

resource "aws_security_group_rule" "ssh" {
  count             = "${length(var.ops_cidrs) > 0 ? 1 : 0}"
  type              = "ingress"
  from_port         = 22
  to_port           = 22
  protocol          = "tcp"
  cidr_blocks       = ["${var.ops_cidrs}"]
  security_group_id = "${aws_security_group.web.id}"
}

variable "ops_cidrs" {
  type    = "list"
  default = []
}

output "bastion_ip" {
  value = "${aws_instance.bastion.public_ip}"
}
