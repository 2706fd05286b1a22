module hcl-conformance/adapters/hcl-go

go 1.22

require (
	github.com/hashicorp/hcl/v2 v2.14.1
	github.com/zclconf/go-cty v1.12.1
)

require (
	github.com/agext/levenshtein v1.2.1 // indirect
	github.com/apparentlymart/go-textseg/v13 v13.0.0 // indirect
	github.com/mitchellh/go-wordwrap v0.0.0-20150314170334-ad45545899c7 // indirect
	golang.org/x/text v0.3.7 // indirect
)
