# Values for the Windows build agents, edited on Windows: CR LF endings.
agent_pool   = "win-2022"
agent_count  = 4
install_path = "C:\\BuildAgent"

startup_script = <<EOT
$ErrorActionPreference = "Stop"
Set-Location C:\BuildAgent
.\config.cmd --unattended --pool win-2022 --replace
EOT

motd = <<-EOT
    Windows build agent
    Managed by Terraform: changes are overwritten.
  EOT

labels = {
  os      = "windows"
  version = "2022"
  gpu     = false
}
