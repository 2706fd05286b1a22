terraform {
  required_providers {
    kubernetes = { source = "hashicorp/kubernetes", version = ">= 2.25" }
    helm       = { source = "hashicorp/helm", version = ">= 2.12" }
  }
}

variable "namespace" {
  type    = string
  default = "observability"
}

variable "replicas" {
  type    = number
  default = 2
}

variable "chart_version" {
  type    = string
  default = "58.2.1"
}

resource "kubernetes_namespace" "this" {
  metadata {
    name = var.namespace
    labels = {
      "app.kubernetes.io/managed-by"       = "terraform"
      "pod-security.kubernetes.io/enforce" = "baseline"
    }
  }
}

resource "helm_release" "prometheus" {
  name       = "kube-prometheus-stack"
  repository = "https://prometheus-community.github.io/helm-charts"
  chart      = "kube-prometheus-stack"
  version    = var.chart_version
  namespace  = kubernetes_namespace.this.metadata[0].name
  timeout    = 900

  # A YAML document; its indentation is significant, so the closing marker
  # stays at column 1.
  values = [<<YAML
grafana:
  enabled: true
  adminPassword: ""
  ingress:
    enabled: true
    hosts:
      - grafana.${var.namespace}.example.internal
prometheus:
  prometheusSpec:
    replicas: ${var.replicas}
    retention: 15d
    storageSpec:
      volumeClaimTemplate:
        spec:
          storageClassName: gp3
          resources:
            requests:
              storage: 100Gi
alertmanager:
  config:
    route:
      receiver: "null"
      group_by: ["alertname", "namespace"]
    receivers:
      - name: "null"
YAML
  ]

  set {
    name  = "prometheus-node-exporter.hostRootFsMount.enabled"
    value = "false"
  }

  set {
    name  = "kubeStateMetrics.enabled"
    value = true
  }
}

resource "kubernetes_config_map" "dashboards" {
  metadata {
    name      = "extra-dashboards"
    namespace = kubernetes_namespace.this.metadata[0].name
    labels    = { grafana_dashboard = "1" }
  }

  data = {
    "latency.json" = <<-EOT
      {
        "title": "Latency (${var.namespace})",
        "panels": [
          { "type": "timeseries", "title": "p99", "targets": [{ "expr": "histogram_quantile(0.99, sum(rate(http_request_duration_seconds_bucket[5m])) by (le))" }] }
        ]
      }
    EOT
  }
}

resource "kubernetes_network_policy" "default_deny" {
  metadata {
    name      = "default-deny"
    namespace = var.namespace
  }

  spec {
    pod_selector {}
    policy_types = ["Ingress", "Egress"]

    egress {
      to {
        namespace_selector {
          match_labels = { "kubernetes.io/metadata.name" = "kube-system" }
        }
      }
      ports {
        port     = "53"
        protocol = "UDP"
      }
    }
  }
}

# A provider whose schema happens to use words HCL itself uses elsewhere.
resource "kubernetes_manifest" "alert_rule" {
  manifest = {
    apiVersion = "monitoring.coreos.com/v1"
    kind       = "PrometheusRule"
    metadata = {
      name      = "node-rules"
      namespace = var.namespace
    }
    spec = {
      groups = [{
        name = "node"
        rules = [{
          alert = "NodeDiskAlmostFull"
          expr  = "node_filesystem_avail_bytes / node_filesystem_size_bytes < 0.1"
          for   = "15m"
          labels = {
            severity = "warning"
          }
          annotations = {
            summary = "Disk on {{ $labels.instance }} is 90% full"
          }
        }]
      }]
    }
  }
}

resource "example_rule" "keywords" {
  if        = "request.method == 'GET'"
  in        = ["ingress", "egress"]
  for       = "30s"
  null      = false
  true      = "yes"
  endfor    = 1
  condition = "always"
}
