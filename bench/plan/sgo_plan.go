// sgo_plan: the Go Starlark implementation (go.starlark.net) executing a
// fault spec with stand-in builtins: the peer for bench/plan/run.py.
//
// The stand-ins do what a loader must at the least: check and unpack their
// arguments, build a value (a struct for services, interfaces, faults and
// assumptions), and register tests and matrix cells in Go slices. They do
// no analysis: this times the Go interpreter merely executing the file.
//
// Build (Debian golang-go + golang-starlark-dev):
//   GO111MODULE=off GOPATH=/usr/share/gocode go build -o sgo_plan sgo_plan.go
// Run: sgo_plan SPEC.star   (prints the number of registered tests)
package main

import (
	"fmt"
	"os"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

type registry struct {
	services    []*starlarkstruct.Struct
	assumptions []*starlarkstruct.Struct
	tests       []string
}

var reg registry

func str(v starlark.Value) string {
	if s, ok := v.(starlark.String); ok {
		return string(s)
	}
	return v.String()
}

func kwargsDict(kwargs []starlark.Tuple) starlark.StringDict {
	d := starlark.StringDict{}
	for _, kv := range kwargs {
		d[string(kv[0].(starlark.String))] = kv[1]
	}
	return d
}

func service(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("%s: want name and binary", b.Name())
	}
	fields := starlark.StringDict{"name": args[0], "binary": args[1]}
	for _, a := range args[2:] {
		iface, ok := a.(*starlarkstruct.Struct)
		if !ok {
			return nil, fmt.Errorf("%s: not an interface: %s", b.Name(), a.Type())
		}
		n, _ := iface.Attr("name")
		port, _ := iface.Attr("port")
		ref := starlarkstruct.FromStringDict(starlark.String("interface_ref"), starlark.StringDict{
			"addr":          starlark.String(fmt.Sprintf("localhost:%s", port.String())),
			"internal_addr": starlark.String(fmt.Sprintf("%s:%s", str(args[0]), port.String())),
			"port":          port,
		})
		fields[str(n)] = ref
	}
	for k, v := range kwargsDict(kwargs) {
		switch k {
		case "env", "depends_on", "healthcheck", "args", "ops", "seccomp":
			fields[k] = v
		default:
			return nil, fmt.Errorf("%s: unexpected keyword %s", b.Name(), k)
		}
	}
	s := starlarkstruct.FromStringDict(starlark.String("service"), fields)
	reg.services = append(reg.services, s)
	return s, nil
}

func iface(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name, protocol string
	var port int
	var spec string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &name, "protocol", &protocol, "port", &port, "spec?", &spec); err != nil {
		return nil, err
	}
	return starlarkstruct.FromStringDict(starlark.String("interface"), starlark.StringDict{
		"name": starlark.String(name), "protocol": starlark.String(protocol), "port": starlark.MakeInt(port),
	}), nil
}

// deny / delay / allow / tcp / http / expect_*: a struct of their arguments.
func record(kind string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		d := kwargsDict(kwargs)
		if len(args) > 0 {
			d["arg"] = args[0]
		}
		return starlarkstruct.FromStringDict(starlark.String(kind), d), nil
	}
}

func faultAssumption(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("%s: want a name", b.Name())
	}
	d := kwargsDict(kwargs)
	d["name"] = args[0]
	a := starlarkstruct.FromStringDict(starlark.String("fault_assumption"), d)
	reg.assumptions = append(reg.assumptions, a)
	return a, nil
}

func nameOf(v starlark.Value) string {
	if s, ok := v.(*starlarkstruct.Struct); ok {
		if n, err := s.Attr("name"); err == nil {
			return str(n)
		}
	}
	if c, ok := v.(starlark.Callable); ok {
		return c.Name()
	}
	return str(v)
}

func faultMatrix(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var scenarios, faults *starlark.List
	var defaultExpect, overrides, exclude, monitors starlark.Value
	var requireFire bool
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "scenarios", &scenarios, "faults", &faults,
		"default_expect?", &defaultExpect, "overrides?", &overrides, "exclude?", &exclude,
		"monitors?", &monitors, "require_faults_fire?", &requireFire); err != nil {
		return nil, err
	}
	for i := 0; i < scenarios.Len(); i++ {
		for j := 0; j < faults.Len(); j++ {
			reg.tests = append(reg.tests, "test_matrix_"+nameOf(scenarios.Index(i))+"_"+nameOf(faults.Index(j)))
		}
	}
	return starlark.None, nil
}

func faultScenario(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var scenario, faults, expect, timeout, monitors starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &name, "scenario", &scenario,
		"faults?", &faults, "expect?", &expect, "timeout?", &timeout, "monitors?", &monitors); err != nil {
		return nil, err
	}
	reg.tests = append(reg.tests, "test_"+name)
	return starlark.None, nil
}

func testFn(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var body, setup, timeout, expect, assume starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &name, "body", &body,
		"setup?", &setup, "timeout?", &timeout, "expect?", &expect, "assume?", &assume); err != nil {
		return nil, err
	}
	reg.tests = append(reg.tests, "test_"+name)
	return starlark.None, nil
}

func scenario(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &fn); err != nil {
		return nil, err
	}
	reg.tests = append(reg.tests, "test_"+fn.Name())
	return fn, nil
}

func choose(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%s: want options", b.Name())
	}
	l, ok := args[len(args)-1].(*starlark.List)
	if !ok || l.Len() == 0 {
		return nil, fmt.Errorf("%s: options must be a non-empty list", b.Name())
	}
	return l.Index(0), nil
}

func none(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return starlark.None, nil
}

func bodyOnly(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return nil, fmt.Errorf("%s() can only be called inside a test body", b.Name())
}

func main() {
	thread := &starlark.Thread{Name: "main", Print: func(_ *starlark.Thread, msg string) { fmt.Println(msg) }}
	predeclared := starlark.StringDict{}
	add := func(name string, fn func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) {
		predeclared[name] = starlark.NewBuiltin(name, fn)
	}
	add("service", service)
	add("interface", iface)
	for _, k := range []string{"deny", "delay", "allow", "tcp", "http", "ready", "op",
		"expect_success", "expect_error_within", "expect_hang"} {
		add(k, record(k))
	}
	add("fault_assumption", faultAssumption)
	add("fault_matrix", faultMatrix)
	add("fault_scenario", faultScenario)
	add("test", testFn)
	add("scenario", scenario)
	add("choose", choose)
	add("determinism", none)
	for _, k := range []string{"fault", "fault_all", "fault_start", "fault_stop", "parallel",
		"assert_eq", "assert_true", "assert_eventually", "assert_never", "assert_before",
		"events", "halt", "nondet", "sleep", "trace", "trace_start", "trace_stop"} {
		add(k, bodyOnly)
	}
	globals, err := starlark.ExecFile(thread, os.Args[1], nil, predeclared)
	if err != nil {
		if e, ok := err.(*starlark.EvalError); ok {
			fmt.Fprintln(os.Stderr, e.Backtrace())
		} else {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(1)
	}
	defs := 0
	for name, v := range globals {
		if _, ok := v.(*starlark.Function); ok && len(name) > 5 && name[:5] == "test_" {
			defs++
		}
	}
	fmt.Println(len(reg.tests)+defs, "tests,", len(reg.services), "services")
}
