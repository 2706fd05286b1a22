# Windows Server 2022 on vSphere. Saved with CR LF line endings.

source "vsphere-iso" "win2022" {
  vcenter_server      = var.vsphere.server
  datacenter          = var.vsphere.datacenter
  cluster             = var.vsphere.cluster
  datastore           = var.vsphere.datastore
  insecure_connection = false

  vm_name              = "tpl-win2022-${formatdate("YYYYMMDD", timestamp())}"
  guest_os_type        = "windows2019srvNext_64Guest"
  firmware             = "efi"
  CPUs                 = 4
  RAM                  = 8192
  disk_controller_type = ["pvscsi"]

  storage {
    disk_size             = 61440
    disk_thin_provisioned = true
  }

  network_adapters {
    network      = var.vsphere.network
    network_card = "vmxnet3"
  }

  iso_paths = [
    "[${var.vsphere.datastore}] iso/en-us_windows_server_2022_x64.iso",
    "[] /vmimages/tools-isoimages/windows.iso",
  ]

  cd_files = ["./answer/autounattend.xml", "./scripts/enable-winrm.ps1"]

  communicator   = "winrm"
  winrm_username = "Administrator"
  winrm_password = var.winrm_password
  winrm_timeout  = "4h"
  winrm_use_ssl  = true
  winrm_insecure = true

  boot_wait    = "3s"
  boot_command = ["<spacebar><wait><spacebar>"]

  convert_to_template = true
  shutdown_command    = "shutdown /s /t 10 /f /d p:4:1 /c \"Packer Shutdown\""
}

build {
  sources = ["source.vsphere-iso.win2022"]

  provisioner "powershell" {
    elevated_user     = "Administrator"
    elevated_password = var.winrm_password
    inline = [
      "Set-ExecutionPolicy Bypass -Scope Process -Force",
      "Install-WindowsFeature -Name Web-Server -IncludeManagementTools",
      "New-Item -ItemType Directory -Force -Path 'C:\\ProgramData\\Acme\\logs'",
    ]
  }

  provisioner "powershell" {
    script = "${path.root}/scripts/harden.ps1"
    environment_vars = [
      "HARDENING_LEVEL=${var.hardening_level}",
    ]
  }

  provisioner "windows-update" {
    search_criteria = "IsInstalled=0"
    filters = [
      "exclude:$_.Title -like '*Preview*'",
      "include:$true",
    ]
    update_limit = 25
  }

  provisioner "powershell" {
    inline = [<<-PS
      $ErrorActionPreference = 'Stop'
      Write-Host "Cleaning up before sysprep"
      Remove-Item -Recurse -Force C:\Windows\Temp\* -ErrorAction SilentlyContinue
      & $env:SystemRoot\System32\Sysprep\Sysprep.exe /oobe /generalize /quiet /quit /mode:vm
    PS
    ]
  }

  provisioner "windows-restart" {
    restart_timeout = "30m"
  }
}
