variable "datacenters" {
  type    = list(string)
  default = ["dc1"]
}

variable "image" {
  type        = string
  description = "The web container image, pinned by digest in production."
}

variable "count" {
  type    = number
  default = 3
}

job "web" {
  datacenters = var.datacenters
  type        = "service"
  namespace   = "default"
  priority    = 60

  meta {
    owner = "team-web"
    git   = "8c1f2e4"
  }

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  constraint {
    operator = "distinct_hosts"
    value    = "true"
  }

  update {
    max_parallel      = 1
    min_healthy_time  = "10s"
    healthy_deadline  = "3m"
    progress_deadline = "10m"
    auto_revert       = true
    canary            = 1
  }

  spread {
    attribute = "${node.datacenter}"
    weight    = 100
  }

  group "frontend" {
    count = var.count

    network {
      mode = "bridge"
      port "http" {
        to = 8080
      }
      port "metrics" {}
    }

    service {
      name = "web"
      port = "http"
      tags = ["urlprefix-/", "traefik.enable=true", "traefik.http.routers.web.rule=Host(`www.example.com`)"]

      check {
        type     = "http"
        path     = "/healthz"
        interval = "10s"
        timeout  = "2s"

        check_restart {
          limit = 3
          grace = "30s"
        }
      }
    }

    restart {
      attempts = 2
      interval = "30m"
      delay    = "15s"
      mode     = "fail"
    }

    ephemeral_disk {
      size    = 300
      migrate = true
    }

    task "server" {
      driver = "docker"

      config {
        image = var.image
        ports = ["http", "metrics"]
        args  = ["--listen", ":${NOMAD_PORT_http}", "--metrics", ":${NOMAD_PORT_metrics}"]

        logging {
          type = "journald"
          config {
            tag = "web-${NOMAD_ALLOC_INDEX}"
          }
        }
      }

      env {
        APP_ENV       = "production"
        ALLOC_ID      = "${NOMAD_ALLOC_ID}"
        NODE_NAME     = "${node.unique.name}"
        UPSTREAM_HOST = "api.service.consul"
      }

      # consul-template; its {{ }} actions are no HCL syntax, but ${ } is,
      # hence $${ for the shell variable.
      template {
        destination = "secrets/app.env"
        env         = true
        change_mode = "restart"
        data        = <<EOH
{{ with secret "kv/data/web" }}
SESSION_KEY={{ .Data.data.session_key }}
DATABASE_PASSWORD={{ .Data.data.db_password }}
{{ end }}
CACHE_DIR=$${NOMAD_TASK_DIR}/cache
EOH
      }

      template {
        destination   = "local/nginx-upstreams.conf"
        change_mode   = "signal"
        change_signal = "SIGHUP"
        data          = <<-EOT
          upstream api {
          {{- range service "api" }}
            server {{ .Address }}:{{ .Port }};
          {{- else }}
            server 127.0.0.1:65535; # no instance yet
          {{- end }}
          }
        EOT
      }

      resources {
        cpu        = 500
        memory     = 256
        memory_max = 512
      }

      kill_timeout = "20s"
    }
  }
}
