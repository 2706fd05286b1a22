packer {
  required_version = ">= 1.10.0"
  required_plugins {
    amazon = {
      version = ">= 1.3.0"
      source  = "github.com/hashicorp/amazon"
    }
    ansible = {
      version = "~> 1"
      source  = "github.com/hashicorp/ansible"
    }
  }
}

locals {
  timestamp  = regex_replace(timestamp(), "[- TZ:]", "")
  image_name = "base-ubuntu-2204-${local.timestamp}"
  build_tags = {
    OS          = "Ubuntu"
    Release     = "22.04"
    BuiltBy     = "packer"
    SourceAMI   = "{{ .SourceAMI }}"
    BuildRegion = "{{ .BuildRegion }}"
  }
}

source "amazon-ebs" "ubuntu" {
  ami_name      = local.image_name
  instance_type = var.instance_type
  region        = var.region
  ami_regions   = var.copy_to_regions
  ssh_username  = "ubuntu"
  encrypt_boot  = true

  source_ami_filter {
    filters = {
      name                = "ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-*"
      root-device-type    = "ebs"
      virtualization-type = "hvm"
    }
    most_recent = true
    owners      = ["099720109477"]
  }

  launch_block_device_mappings {
    device_name           = "/dev/sda1"
    volume_size           = 16
    volume_type           = "gp3"
    delete_on_termination = true
  }

  tags          = local.build_tags
  snapshot_tags = local.build_tags

  run_tags = { Name = "packer-${local.image_name}" }
}

build {
  name    = "base"
  sources = ["source.amazon-ebs.ubuntu"]

  provisioner "shell" {
    environment_vars = ["DEBIAN_FRONTEND=noninteractive", "TZ=UTC"]
    execute_command  = "echo 'packer' | sudo -S sh -c '{{ .Vars }} {{ .Path }}'"
    inline = [
      "cloud-init status --wait",
      "apt-get update",
      "apt-get -y upgrade",
      "apt-get -y install python3 python3-pip unattended-upgrades",
    ]
  }

  provisioner "file" {
    destination = "/tmp/50unattended-upgrades"
    content     = <<EOF
Unattended-Upgrade::Allowed-Origins {
        "$${distro_id}:$${distro_codename}-security";
        "$${distro_id}ESMApps:$${distro_codename}-apps-security";
};
Unattended-Upgrade::Automatic-Reboot "false";
    EOF
  }

  provisioner "ansible" {
    playbook_file   = "${path.root}/ansible/base.yml"
    user            = "ubuntu"
    use_proxy       = false
    extra_arguments = ["--extra-vars", "hardening_level=${var.hardening_level}", "-v"]
    ansible_env_vars = [
      "ANSIBLE_HOST_KEY_CHECKING=False",
      "ANSIBLE_SSH_ARGS='-o ForwardAgent=yes -o ControlMaster=auto -o ControlPersist=60s'",
    ]
  }

  provisioner "shell" {
    inline = ["sudo mv /tmp/50unattended-upgrades /etc/apt/apt.conf.d/", "sudo cloud-init clean --logs"]
  }

  post-processor "manifest" {
    output     = "manifest.json"
    strip_path = true
    custom_data = {
      image_name = local.image_name
      hardening  = var.hardening_level
    }
  }

  post-processor "shell-local" {
    inline = ["jq -r '.builds[-1].artifact_id' manifest.json | cut -d: -f2 > ami-id.txt"]
  }
}
