# Written for Terraform 0.11 and upgraded to 0.12 syntax by hand, so it
# still has the old habits: "${...}" around every reference, the legacy
# splat (.*.) and index (.0.) forms, and count everywhere.

provider "aws" {
  region  = "${var.region}"
  version = "~> 2.70"
}

variable "region" {
  default = "us-east-1"
}

variable "web_count" {
  default = "3"
}

variable "azs" {
  type    = "list"
  default = ["us-east-1a", "us-east-1b", "us-east-1d"]
}

variable "amis" {
  type = "map"

  default = {
    us-east-1 = "ami-0a1b2c3d4e5f60718"
    us-west-2 = "ami-09f8e7d6c5b4a3921"
  }
}

resource "aws_instance" "web" {
  count             = "${var.web_count}"
  ami               = "${lookup(var.amis, var.region)}"
  instance_type     = "t2.micro"
  availability_zone = "${element(var.azs, count.index)}"
  subnet_id         = "${element(aws_subnet.web.*.id, count.index)}"

  vpc_security_group_ids = ["${aws_security_group.web.id}"]

  user_data = <<EOF
#!/bin/bash
yum install -y httpd
echo "web-${count.index}" > /var/www/html/index.html
service httpd start
EOF

  tags {
    Name = "web-${count.index + 1}"
    Role = "web"
  }
}

resource "aws_subnet" "web" {
  count             = "${length(var.azs)}"
  vpc_id            = "${aws_vpc.main.id}"
  cidr_block        = "${cidrsubnet(aws_vpc.main.cidr_block, 8, count.index)}"
  availability_zone = "${var.azs[count.index]}"
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = "${aws_vpc.main.id}"

  ingress {
    from_port   = 80
    to_port     = 80
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }
}

resource "aws_elb" "web" {
  name               = "web-elb"
  subnets            = ["${aws_subnet.web.*.id}"]
  security_groups    = ["${aws_security_group.web.id}"]
  instances          = ["${aws_instance.web.*.id}"]
  cross_zone_load_balancing = true

  listener {
    instance_port     = 80
    instance_protocol = "http"
    lb_port           = 80
    lb_protocol       = "http"
  }

  health_check {
    target              = "HTTP:80/"
    interval            = 30
    healthy_threshold   = 2
    unhealthy_threshold = 2
    timeout             = 5
  }
}

resource "aws_route53_record" "www" {
  zone_id = "${data.aws_route53_zone.main.zone_id}"
  name    = "www.${data.aws_route53_zone.main.name}"
  type    = "A"

  alias {
    name                   = "${aws_elb.web.dns_name}"
    zone_id                = "${aws_elb.web.zone_id}"
    evaluate_target_health = false
  }
}

data "aws_route53_zone" "main" {
  name = "example.com."
}

output "web_ips" {
  value = "${aws_instance.web.*.private_ip}"
}

output "first_web_id" {
  value = "${aws_instance.web.0.id}"
}

output "first_subnet_az" {
  value = "${aws_subnet.web.0.availability_zone}"
}

output "web_summary" {
  value = "${join(",", aws_instance.web.*.id)} in ${join(",", distinct(aws_instance.web.*.availability_zone))}"
}
