# Customer-facing strings of the status page, in every language we ship.
# Written by the localisation team; keep the file UTF-8.

locals {
  maintenance_banner = {
    en = "Scheduled maintenance: the dashboard will be read-only for ~30 minutes."
    de = "Geplante Wartung: Das Dashboard ist für ca. 30 Minuten schreibgeschützt."
    fr = "Maintenance planifiée : le tableau de bord sera en lecture seule pendant ~30 minutes."
    es = "Mantenimiento programado: el panel será de solo lectura durante ~30 minutos."
    pl = "Planowana konserwacja: panel będzie dostępny tylko do odczytu przez ok. 30 minut."
    tr = "Planlı bakım: pano yaklaşık 30 dakika boyunca salt okunur olacak."
    ja = "定期メンテナンス：ダッシュボードは約30分間読み取り専用になります。"
    zh = "计划维护：仪表板将在大约 30 分钟内处于只读状态。"
    ko = "정기 점검: 약 30분 동안 대시보드가 읽기 전용으로 전환됩니다."
    ar = "صيانة مجدولة: ستكون لوحة التحكم للقراءة فقط لمدة 30 دقيقة تقريبًا."
    he = "תחזוקה מתוכננת: לוח הבקרה יהיה לקריאה בלבד למשך כ-30 דקות."
    el = "Προγραμματισμένη συντήρηση: ο πίνακας ελέγχου θα είναι μόνο για ανάγνωση για ~30 λεπτά."
    uk = "Планове обслуговування: панель буде доступна лише для читання приблизно 30 хвилин."
  }

  # Emoji and symbols outside the Basic Multilingual Plane.
  status_icons = {
    operational = "✅"
    degraded    = "⚠️"
    outage      = "🔥"
    maintenance = "🛠️"
    unknown     = "\u2753"
    flag        = "\U0001F3F3"
  }

  # Combining characters: "é" written two ways; NFC and NFD.
  cafe_composed   = "café"
  cafe_decomposed = "café"

  escapes = {
    quote     = "She said \"hello\""
    backslash = "C:\\Program Files\\Acme\\bin"
    tab       = "col1\tcol2"
    newline   = "line one\nline two"
    crlf      = "windows\r\nline"
    literal   = "a literal $${not_interpolated} and %%{not_a_directive}"
    dollars   = "costs $5, or $$5 twice, or $${5}"
    percent   = "100% sure, 50%% off, %{if true}yes%{endif}"
  }

  upper_names = { for lang, text in local.maintenance_banner : upper(lang) => length(text) }

  # A long line, as generated descriptions often are.
  long_description = "This stack provisions the status page: a static site on S3 behind CloudFront, a Lambda@Edge function that adds security headers (Content-Security-Policy, Strict-Transport-Security, X-Content-Type-Options, Referrer-Policy, Permissions-Policy), a Route 53 health check per public endpoint, and an SNS topic that the incident tooling publishes to whenever an incident is opened, updated or resolved; subscribers receive a localised message in their preferred language, falling back to English when no translation exists for the language tag they selected in their notification settings."
}

resource "aws_s3_object" "banner" {
  for_each     = local.maintenance_banner
  bucket       = "acme-status-page"
  key          = "banners/${each.key}.txt"
  content      = "${local.status_icons.maintenance} ${each.value}"
  content_type = "text/plain; charset=utf-8"
}

resource "aws_s3_object" "readme" {
  bucket = "acme-status-page"
  key    = "README.txt"

  content = <<-EOT
    Status page — ステータスページ — Statusseite
    ==========================================

    Icons: ${join(" ", [local.status_icons.operational, local.status_icons.degraded, local.status_icons.outage])}
    Template syntax is escaped here: $${var.name} and %%{ if x }...%%{ endif }.
    Shell: echo "$HOME" and echo "$${HOME}" both stay as written.
  EOT
}

output "languages" {
  value = keys(local.maintenance_banner)
}

output "description_length" {
  value = length(local.long_description)
}
