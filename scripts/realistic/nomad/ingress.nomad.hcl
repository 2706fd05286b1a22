locals {
  version    = "v3.0.4"
  http_ports = { http = 80, https = 443, admin = 8081 }
  entrypoints = [for name, port in local.http_ports : "--entrypoints.${name}.address=:${port}"]
}

job "ingress" {
  type        = "system"
  datacenters = ["*"]
  node_pool   = "edge"

  group "traefik" {
    network {
      dynamic "port" {
        for_each = local.http_ports
        labels   = [port.key]
        content {
          static = port.value
        }
      }
    }

    service {
      name     = "traefik"
      port     = "admin"
      provider = "nomad"
    }

    task "traefik" {
      driver = "docker"

      config {
        image        = "traefik:${local.version}"
        network_mode = "host"
        args = concat(local.entrypoints, [
          "--providers.nomad=true",
          "--providers.nomad.exposedByDefault=false",
          "--api.dashboard=true",
          "--api.insecure=false",
        ])
        volumes = ["local/dynamic.toml:/etc/traefik/dynamic.toml:ro"]
      }

      template {
        destination = "local/dynamic.toml"
        data        = <<-TOML
          [http.middlewares.secure-headers.headers]
            frameDeny = true
            stsSeconds = 31536000
            contentTypeNosniff = true

          [tls.options.default]
            minVersion = "VersionTLS12"
        TOML
      }

      resources {
        cpu    = 200
        memory = 128
      }
    }
  }
}
