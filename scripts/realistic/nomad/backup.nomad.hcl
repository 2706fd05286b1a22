// A nightly periodic batch job that dumps the database to S3.
job "pg-backup" {
  datacenters = ["dc1", "dc2"]
  type        = "batch"

  periodic {
    crons            = ["30 2 * * *"]
    prohibit_overlap = true
    time_zone        = "Europe/Berlin"
  }

  parameterized {
    payload       = "optional"
    meta_optional = ["database"]
  }

  group "dump" {
    count = 1

    reschedule {
      attempts  = 3
      interval  = "2h"
      delay     = "5m"
      unlimited = false
    }

    task "pg_dump" {
      driver = "exec"
      user   = "backup"

      artifact {
        source      = "https://releases.example.com/tools/s3-upload_1.4.2_linux_amd64.tar.gz"
        destination = "local/bin"
        options {
          checksum = "sha256:5a0e1f3c9b7d2e4a6c8f0b1d3e5a7c9f2b4d6e8a0c1f3b5d7e9a2c4f6b8d0e1a"
        }
      }

      # Script body indented with the job; its closing marker too.
      template {
        destination = "local/backup.sh"
        perms       = "0755"
        data        = <<EOF
          #!/bin/sh
          set -eu
          db="$${NOMAD_META_database:-app}"
          stamp=$(date -u +%Y%m%dT%H%M%SZ)
          pg_dump --format=custom --file "$NOMAD_TASK_DIR/$db-$stamp.dump" "$db"
          "$NOMAD_TASK_DIR/bin/s3-upload" "$NOMAD_TASK_DIR/$db-$stamp.dump" "s3://acme-backups/postgres/$db/"
          EOF
      }

      template {
        destination = "secrets/pgpass"
        perms       = "0600"
        data        = "{{ with secret \"database/creds/backup\" }}*:*:*:{{ .Data.username }}:{{ .Data.password }}{{ end }}"
      }

      env {
        PGPASSFILE = "$${NOMAD_SECRETS_DIR}/pgpass"
        PGHOST     = "postgres.service.consul"
      }

      config {
        command = "local/backup.sh"
      }

      vault {
        policies    = ["pg-backup"]
        change_mode = "noop"
      }

      resources {
        cpu    = 1000
        memory = 1024
      }

      logs {
        max_files     = 3
        max_file_size = 10
      }
    }
  }
}
