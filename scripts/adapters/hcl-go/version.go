package main

// The adapter is one program built against several versions of
// hashicorp/hcl, one per profile of the suite (go.mod: v2.14.1, profile
// hcl-v2.14; go-v2.X.mod: v2.X, profile hcl-v2.X; scripts/build-hcl-go.sh
// picks the module file). What it says of itself in the handshake is read from
// the build, so the answer always names the library it really runs.

import (
	"runtime/debug"
	"strconv"
	"strings"
)

const (
	hclModule = "github.com/hashicorp/hcl/v2"
	ctyModule = "github.com/zclconf/go-cty"
)

// moduleVersion is the version of a module the binary was built with
// ("v2.25.0"), or "unknown".
func moduleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == path {
				if dep.Replace != nil {
					return dep.Replace.Version
				}
				return dep.Version
			}
		}
	}
	return "unknown"
}

// adapterVersion names the library and its type system, as the handshake
// reports them: "hashicorp/hcl 2.25.0, go-cty 1.20.0".
func adapterVersion() string {
	return "hashicorp/hcl " + strings.TrimPrefix(moduleVersion(hclModule), "v") +
		", go-cty " + strings.TrimPrefix(moduleVersion(ctyModule), "v")
}

// hclAtLeast reports whether the hashicorp/hcl built in is minor.patch of
// major version 2 or newer.
func hclAtLeast(minor, patch int) bool {
	parts := strings.SplitN(strings.TrimPrefix(moduleVersion(hclModule), "v2."), ".", 2)
	if len(parts) != 2 {
		return false
	}
	haveMinor, err1 := strconv.Atoi(parts[0])
	havePatch, err2 := strconv.Atoi(strings.SplitN(parts[1], "-", 2)[0])
	if err1 != nil || err2 != nil {
		return false
	}
	return haveMinor > minor || (haveMinor == minor && havePatch >= patch)
}

// features are the protocol features of this build: namespaced function
// calls parse from hashicorp/hcl v2.20.0 on (its CHANGELOG, "Support for
// namespaced functions"), and the malformed ones are syntax errors from
// v2.20.1 on, so the feature is declared from v2.20.1.
func features() []string {
	have := []string{"unknown", "safety", "ranges", "dynblock", "schema", "typeexpr", "exact-types", "big-numbers"}
	if hclAtLeast(20, 1) {
		have = append(have, "namespaced-functions")
	}
	return have
}
