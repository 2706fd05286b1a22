variable "service" {
	type = string
}

variable "alarm_topic_arn" {
	type = string
}

variable "thresholds" {
	type = map(object({
		metric     = string
		namespace  = optional(string, "AWS/ApplicationELB")
		statistic  = optional(string, "Average")
		threshold  = number
		period     = optional(number, 60)
		evaluation = optional(number, 5)
		comparison = optional(string, "GreaterThanThreshold")
		dimensions = optional(map(string), {})
		runbook    = optional(string)
	}))
}

locals {
	alarm_prefix = "${var.service}-"
}

resource "aws_cloudwatch_metric_alarm" "this" {
	for_each = var.thresholds

	alarm_name          = "${local.alarm_prefix}${each.key}"
	namespace           = each.value.namespace
	metric_name         = each.value.metric
	statistic           = each.value.statistic
	threshold           = each.value.threshold
	period              = each.value.period
	evaluation_periods  = each.value.evaluation
	comparison_operator = each.value.comparison
	dimensions          = each.value.dimensions
	treat_missing_data  = "notBreaching"

	alarm_actions = [var.alarm_topic_arn]
	ok_actions    = [var.alarm_topic_arn]

	# Indented with tabs, the body and the closing marker alike.
	alarm_description = <<-EOT
		${upper(var.service)}: ${each.value.metric} is ${lower(each.value.comparison)} ${each.value.threshold}
		for ${each.value.evaluation} periods of ${each.value.period} seconds.
		%{~ if each.value.runbook != null }
		Runbook: ${each.value.runbook}
		%{~ endif }
	EOT
}

resource "aws_cloudwatch_dashboard" "main" {
	dashboard_name = var.service

	# Tabs before the body, two spaces plus a tab before some lines: the
	# least indented line sets what is removed.
	dashboard_body = <<-JSON
		{
		  "widgets": [
		    {
		      "type": "metric",
		      "x": 0, "y": 0, "width": 12, "height": 6,
		      "properties": {
		        "title": "Requests",
		        "region": "${data.aws_region.current.name}",
		        "metrics": [
		          ["AWS/ApplicationELB", "RequestCount", "LoadBalancer", "${var.service}"]
		        ],
		        "stat": "Sum",
		        "period": 60
		      }
		    },
		    {
		      "type": "text",
		      "x": 12, "y": 0, "width": 12, "height": 6,
		      "properties": {
		        "markdown": "## ${var.service}\nAlarms: ${length(var.thresholds)}"
		      }
		    }
		  ]
		}
		JSON
}

resource "aws_sns_topic_subscription" "pager" {
	topic_arn = var.alarm_topic_arn
	protocol  = "https"
	endpoint  = "https://events.pagerduty.example/integration/${var.service}/enqueue"

	filter_policy = <<-EOT
	  {
	  	"severity": ["critical", "high"]
	  }
	EOT

	delivery_policy = jsonencode({
		healthyRetryPolicy = {
			minDelayTarget     = 20
			maxDelayTarget     = 600
			numRetries         = 10
			backoffFunction    = "exponential"
		}
	})
}

data "aws_region" "current" {}
