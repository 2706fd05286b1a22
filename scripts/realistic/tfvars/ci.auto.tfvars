// Written by the CI pipeline before every plan; reviewed by nobody.
github_repository = "acme/payments"
build_number      = 4182
commit_sha        = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
commit_message    = "Merge pull request #1337 from acme/fix-\"quoted\"-title\n\nFix: handle $${var}-like text in PR titles"
pipeline_url      = "https://ci.example.com/acme/payments/-/pipelines/4182?tab=jobs&status=failed"
triggered_by      = "Zoë O'Brien <zoe@acme.example>"
changed_paths     = ["modules/network/main.tf", "envs/prod/terraform.tfvars", "README.md"]
release_notes     = <<NOTES
* Fix NAT gateway routing for single-NAT setups
* Bump the AWS provider to 5.42
* Tag every resource with CostCenter
NOTES
