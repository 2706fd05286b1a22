# Texts for the notification service, kept as tfvars so that translators
# can edit them without touching the module.

welcome_email = {
  subject = "Welcome to ACME, $${first_name}!"
  body    = <<-EOT
    Hello $${first_name},

    your account is ready. Sign in at https://app.acme.example/login
    and change the temporary password within 24 hours.

      – The ACME team
  EOT
}

sms_templates = [
  <<EOT
Your code is $${code}. It expires in 10 minutes.
EOT
  ,
  <<-EOT
	Ihr Code lautet $${code}.
	Er ist 10 Minuten gültig.
	EOT
  ,
]

incident_banner = <<-MD
	## Service disruption
	
	  * API latency is elevated in **eu-west-1**
	  * Directives are not evaluated here: %%{ if x }
	MD

footer = "%{ if true }© ACME Corp%{ endif } — ${"all rights reserved"}"

runbook_steps = {
  restart = <<-STEPS
      1. Drain the node: nomad node drain -enable -yes $${NODE_ID}
      2. Restart the service
        (wait for the health check to pass)
      3. Re-enable scheduling
    STEPS
  rollback = <<STEPS
1. Find the previous job version: nomad job history web
2. nomad job revert web $${VERSION}
STEPS
}

empty_heredoc = <<EOT
EOT

blank_lines = <<-EOT

    first

    last

  EOT
