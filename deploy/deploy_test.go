package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/sealgate/sealgate/ledger/keyring"
)

const (
	// root is where the test puts its in-memory copy of this directory.
	root = "/deploy"

	// The topics of `sealgate serve` (ledger.Topic, guard.ProposalTopic),
	// and the variable that holds their partition count: the topics Job
	// creates them with it and every service passes it as --partitions.
	recordsTopic   = "sealgate.records.v1"
	proposalsTopic = "sealgate.proposals.v1"
	partitionsVar  = "SEALGATE_PARTITIONS"

	// The work topic (services/work.Topic): one item per job, read by the
	// lanes of the executor's and mutation's replicas under SERVICE.work;
	// the variable that holds its partition count (--work-partitions); and
	// the lanes per replica (serve's --job-lanes default).
	workTopic         = "sealgate.work.v1"
	workPartitionsVar = "SEALGATE_WORK_PARTITIONS"
	jobLanes          = 2

	// serveSource is the `sealgate serve` command, which
	// TestServeFlagsMatchServe reads the flags and services from.
	serveSource = "../tools/sealgate/serve.go"
	rolesSource = "../tools/sealgate/roles.go"

	// kedaCRD is KEDA's ScaledObject CRD, copied from the KEDA module
	// (testdata/README.md); kedaCRDSHA256 pins it.
	kedaCRD       = "testdata/keda.sh_scaledobjects.yaml"
	kedaCRDSHA256 = "af35555862a83933b074af14ad439c4b4ceabaf4daa3e9338e9b23e36d308d80"

	// Paths and names the manifests and `sealgate serve` agree on.
	keysDir        = "/etc/sealgate/keys"
	trustDir       = "/etc/sealgate/trust"
	trustKey       = "trust.json"
	verdictDir     = "/etc/sealgate/verdict"
	verdictKey     = "verdict.key"
	verdictSecret  = "sealgate-verdict-key"
	configMap      = "sealgate-config"
	gatewayPort    = 9090
	gateService    = "sealgate.v1.Gate"
	partOfLabel    = "app.kubernetes.io/part-of"
	componentLabel = "app.kubernetes.io/component"
)

// services lists the services of DESIGN.md §8 in the order of `sealgate
// serve` (serveOrder), each run by one Deployment: ledger is the admission
// guard, the records topic's single writer.
func services() []string {
	return []string{"ledger", "gateway", "checkout", "executor", "reach", "mutation", "adjudication", "signing"}
}

// runsTests reports whether a service runs tests, in bubblewrap, and is
// scaled by KEDA on its consumer lag.
func runsTests(service string) bool {
	return service == "executor" || service == "mutation"
}

// keySecret is the Secret holding a service's ledger key.
func keySecret(service string) string { return "sealgate-key-" + service }

// kafkaTriggerMetadata lists the trigger metadata KEDA's kafka scaler reads
// (pkg/scalers/kafka_scaler.go of KEDA v2.21.0, the fields read from
// triggerMetadata), with the FromEnv forms of those it also resolves from the
// target's environment. KEDA only logs a key it does not know; this test
// refuses it, so a misspelled lagThreshold cannot go unnoticed.
func kafkaTriggerMetadata() []string {
	return []string{
		"bootstrapServers", "bootstrapServersFromEnv",
		"consumerGroup", "consumerGroupFromEnv",
		"topic", "topicFromEnv",
		"partitionLimitation", "lagThreshold", "activationLagThreshold",
		"offsetResetPolicy", "allowIdleConsumers", "excludePersistentLag",
		"scaleToZeroOnInvalidOffset", "limitToPartitionsWithLag",
		"ensureEvenDistributionOfPartitions", "fullMetadata", "version",
		"tls", "unsafeSsl", "sasl", "saslTokenProvider", "awsRegion",
	}
}

// allServeFlags lists every flag `sealgate serve` has, exactly those that
// tools/sealgate/serve.go registers (TestServeFlagsMatchServe).
func allServeFlags() []string {
	return []string{
		"ledger", "brokers", "blobs", "keys", "trust", "listen", "state",
		"partitions", "sandbox", "build-cache", "signing-key", "tlog", "rekor-url",
		"otlp-endpoint", "otlp-insecure", "broker-wait",
		"replica", "job-lease", "job-lanes", "work-partitions",
	}
}

// serveFlags lists the flags of `sealgate serve` a manifest may give a
// service: those every service reads, and those only some read.
func serveFlags(service string) []string {
	common := []string{"ledger", "brokers", "blobs", "keys", "trust", "state", "partitions", "otlp-endpoint", "otlp-insecure", "broker-wait"}
	switch service {
	case "gateway":
		return append(common, "listen")
	case "executor", "mutation":
		return append(common, "sandbox", "build-cache", "replica", "job-lease", "job-lanes", "work-partitions")
	case "signing":
		return append(common, "signing-key", "tlog", "rekor-url")
	}
	return common
}

// TestServeFlagsMatchServe reads tools/sealgate/serve.go and checks that
// allServeFlags and services are the flags and services `sealgate serve`
// has, so the checks of the manifests' command lines follow the command.
// Under Bazel, where the file is not among the test's data, it skips.
func TestServeFlagsMatchServe(t *testing.T) {
	src, err := os.ReadFile(serveSource)
	if err != nil {
		if os.Getenv("TEST_SRCDIR") != "" {
			t.Skipf("%s is not in this test's runfiles: %v", serveSource, err)
		}
		t.Fatal(err)
	}
	flags, err := serveCommand(src)
	if err != nil {
		t.Fatal(err)
	}
	rolesSrc, err := os.ReadFile(rolesSource)
	if err != nil {
		t.Fatal(err)
	}
	order, err := roleOrder(rolesSrc)
	if err != nil {
		t.Fatal(err)
	}
	if want := slices.Sorted(slices.Values(allServeFlags())); !slices.Equal(flags, want) {
		t.Errorf("%s registers the flags %q; allServeFlags lists %q", serveSource, flags, want)
	}
	for _, svc := range services() {
		for _, f := range serveFlags(svc) {
			if !slices.Contains(flags, f) {
				t.Errorf("serveFlags(%q) allows --%s, which serve does not have", svc, f)
			}
		}
	}
	if !slices.Equal(order, services()) {
		t.Errorf("%s serves %q; services lists %q", rolesSource, order, services())
	}
}

// serveCommand returns, from the source of serve.go, the names of the flags
// newServeCmd registers (f.StringVar(&o.x, "name", ...) and the like),
// sorted.
func serveCommand(src []byte) (flags []string, err error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, serveSource, src, 0)
	if err != nil {
		return nil, err
	}
	for _, decl := range file.Decls {
		d, ok := decl.(*ast.FuncDecl)
		if !ok || d.Name.Name != "newServeCmd" {
			continue
		}
		ast.Inspect(d.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !strings.HasSuffix(sel.Sel.Name, "Var") && !strings.HasSuffix(sel.Sel.Name, "VarP") || len(call.Args) < 2 {
				return true
			}
			if recv, ok := sel.X.(*ast.Ident); !ok || recv.Name != "f" {
				return true
			}
			if name, ok := stringLit(call.Args[1]); ok {
				flags = append(flags, name)
			}
			return true
		})
	}
	if len(flags) == 0 {
		return nil, fmt.Errorf("%s: newServeCmd registers no flags that this test can find", serveSource)
	}
	slices.Sort(flags)
	return flags, nil
}

// roleOrder returns, from the source of roles.go, the services allRoles
// lists, in its order: the role constants it returns, by value.
func roleOrder(src []byte) ([]string, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, rolesSource, src, 0)
	if err != nil {
		return nil, err
	}
	consts := map[string]string{}
	var order []string
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Names) == 1 && len(vs.Values) == 1 {
					if v, ok := stringLit(vs.Values[0]); ok {
						consts[vs.Names[0].Name] = v
					}
				}
			}
		case *ast.FuncDecl:
			if d.Name.Name != "allRoles" {
				continue
			}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				for _, e := range lit.Elts {
					if id, ok := e.(*ast.Ident); ok {
						order = append(order, id.Name)
					}
				}
				return false
			})
		}
	}
	for i, name := range order {
		v, ok := consts[name]
		if !ok {
			return nil, fmt.Errorf("%s: allRoles lists %s, which is no string constant of the file", rolesSource, name)
		}
		order[i] = v
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("%s: no allRoles", rolesSource)
	}
	return order, nil
}

// stringLit is the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// scaledObjectGVK is the one custom kind the manifests use.
func scaledObjectGVK() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: "keda.sh", Version: "v1alpha1", Kind: "ScaledObject"}
}

// scaledObject is the part of KEDA's ScaledObject the checks read. Objects
// are validated against KEDA's CRD schema before they are decoded into it.
type scaledObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		ScaleTargetRef struct {
			APIVersion             string `json:"apiVersion"`
			Kind                   string `json:"kind"`
			Name                   string `json:"name"`
			EnvSourceContainerName string `json:"envSourceContainerName"`
		} `json:"scaleTargetRef"`
		MinReplicaCount *int32 `json:"minReplicaCount"`
		MaxReplicaCount *int32 `json:"maxReplicaCount"`
		Triggers        []struct {
			Type     string            `json:"type"`
			Name     string            `json:"name"`
			Metadata map[string]string `json:"metadata"`
		} `json:"triggers"`
	} `json:"spec"`
}

// celRule is an x-kubernetes-validations rule of the CRD, which the JSON
// Schema validator cannot evaluate: the test checks each one in Go.
type celRule struct {
	rule, message string
}

// decoder decodes rendered objects strictly into their API types.
type decoder struct {
	k8s       runtime.Decoder
	keda      *jsonschema.Schema
	kedaRules []celRule
}

func newDecoder(t *testing.T) *decoder {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	keda, rules, err := scaledObjectSchema()
	if err != nil {
		t.Fatal(err)
	}
	return &decoder{
		// EnableStrict: an unknown or duplicate field is an error, matched
		// case-sensitively, as kubectl apply --validate=strict and the API
		// server's fieldValidation=Strict report it.
		k8s:       serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer(),
		keda:      keda,
		kedaRules: rules,
	}
}

// scaledObjectSchema compiles the v1alpha1 schema of KEDA's ScaledObject CRD
// as a JSON Schema that, like the API server with fieldValidation=Strict,
// rejects every field the CRD does not declare.
func scaledObjectSchema() (*jsonschema.Schema, []celRule, error) {
	b, err := os.ReadFile(kedaCRD)
	if err != nil {
		return nil, nil, err
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != kedaCRDSHA256 {
		return nil, nil, fmt.Errorf("%s: SHA-256 %x, want %s: the file is not the one testdata/README.md names", kedaCRD, sum, kedaCRDSHA256)
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", kedaCRD, err)
	}
	var crd struct {
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
			Versions []struct {
				Name   string `json:"name"`
				Schema struct {
					OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(j, &crd); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", kedaCRD, err)
	}
	gvk := scaledObjectGVK()
	if crd.Spec.Group != gvk.Group || crd.Spec.Names.Kind != gvk.Kind {
		return nil, nil, fmt.Errorf("%s defines %s in %s, want %s", kedaCRD, crd.Spec.Names.Kind, crd.Spec.Group, gvk.GroupKind())
	}
	var s map[string]any
	for _, v := range crd.Spec.Versions {
		if v.Name == gvk.Version {
			s = v.Schema.OpenAPIV3Schema
		}
	}
	if s == nil {
		return nil, nil, fmt.Errorf("%s has no %s schema", kedaCRD, gvk.Version)
	}
	var rules []celRule
	closeSchema(s, &rules)
	// metadata is the API server's, not the CRD's: the decoder checks it
	// as an ObjectMeta.
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		return nil, nil, fmt.Errorf("%s: the %s schema has no properties", kedaCRD, gvk.Version)
	}
	props["metadata"] = map[string]any{"type": "object"}
	doc, err := json.Marshal(s)
	if err != nil {
		return nil, nil, err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, nil, err
	}
	c := jsonschema.NewCompiler()
	// OpenAPI 3.0 schemas are JSON Schema draft 4 with extensions
	// (x-kubernetes-*, format int32…) that a validator ignores.
	c.DefaultDraft(jsonschema.Draft4)
	const url = "keda.sh_scaledobjects.json"
	if err := c.AddResource(url, v); err != nil {
		return nil, nil, err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", kedaCRD, err)
	}
	return sch, rules, nil
}

// closeSchema makes every object schema under s refuse undeclared fields,
// which is what a structural schema means to the API server (it prunes them,
// and with fieldValidation=Strict refuses them), except where the schema
// says x-kubernetes-preserve-unknown-fields. It collects the CEL rules.
func closeSchema(s map[string]any, rules *[]celRule) {
	if vs, ok := s["x-kubernetes-validations"].([]any); ok {
		for _, v := range vs {
			m, _ := v.(map[string]any)
			rule, _ := m["rule"].(string)
			msg, _ := m["message"].(string)
			*rules = append(*rules, celRule{rule: strings.Join(strings.Fields(rule), " "), message: msg})
		}
	}
	preserve, _ := s["x-kubernetes-preserve-unknown-fields"].(bool)
	props, hasProps := s["properties"].(map[string]any)
	for _, p := range props {
		if m, ok := p.(map[string]any); ok {
			closeSchema(m, rules)
		}
	}
	_, hasAdditional := s["additionalProperties"]
	if !preserve && !hasAdditional && (hasProps || s["type"] == "object") {
		s["additionalProperties"] = false
	}
	if m, ok := s["additionalProperties"].(map[string]any); ok {
		closeSchema(m, rules)
	}
	if m, ok := s["items"].(map[string]any); ok {
		closeSchema(m, rules)
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := s[k].([]any); ok {
			for _, e := range list {
				if m, ok := e.(map[string]any); ok {
					closeSchema(m, rules)
				}
			}
		}
	}
}

// decode decodes one rendered object (JSON) into its API type: a core,
// apps or batch kind the test knows, or a KEDA ScaledObject. Anything else
// is an error: an object of a kind nobody checked would go to the cluster
// unchecked.
func (d *decoder) decode(data []byte) (any, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		return nil, err
	}
	if tm.GroupVersionKind() == scaledObjectGVK() {
		return d.decodeScaledObject(data)
	}
	obj, gvk, err := d.k8s.Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	switch obj.(type) {
	case *appsv1.Deployment, *batchv1.Job, *corev1.Service, *corev1.ConfigMap,
		*corev1.Secret, *corev1.PersistentVolumeClaim, *corev1.Namespace:
		return obj, nil
	}
	return nil, fmt.Errorf("%s: not a kind this test checks; teach deploy_test.go about it", gvk)
}

func (d *decoder) decodeScaledObject(data []byte) (*scaledObject, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if err := d.keda.Validate(inst); err != nil {
		return nil, fmt.Errorf("ScaledObject does not match KEDA's CRD schema: %w", err)
	}
	var top struct {
		metav1.TypeMeta `json:",inline"`
		Metadata        metav1.ObjectMeta `json:"metadata"`
		Spec            json.RawMessage   `json:"spec"`
		Status          json.RawMessage   `json:"status"`
	}
	strict, err := sigsjson.UnmarshalStrict(data, &top, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
	if err != nil {
		return nil, err
	}
	if len(strict) > 0 {
		return nil, fmt.Errorf("ScaledObject: %v", strict)
	}
	so := &scaledObject{}
	if err := json.Unmarshal(data, so); err != nil {
		return nil, err
	}
	for _, r := range d.kedaRules {
		if err := checkCELRule(r, so); err != nil {
			return nil, fmt.Errorf("ScaledObject %s: %w", so.Name, err)
		}
	}
	return so, nil
}

// checkCELRule evaluates, in Go, a CEL rule of KEDA's CRD.
func checkCELRule(r celRule, so *scaledObject) error {
	switch r.rule {
	case "!has(self.minReplicaCount) || self.minReplicaCount <= (has(self.maxReplicaCount) ? self.maxReplicaCount : 100)":
		if min := so.Spec.MinReplicaCount; min != nil {
			max := int32(100)
			if so.Spec.MaxReplicaCount != nil {
				max = *so.Spec.MaxReplicaCount
			}
			if *min > max {
				return fmt.Errorf("%s", r.message)
			}
		}
		return nil
	}
	return fmt.Errorf("KEDA's CRD has a validation rule the test does not evaluate: %q (%s)", r.rule, r.message)
}

// objects is one render, decoded, by kind and name.
type objects struct {
	deployments   map[string]*appsv1.Deployment
	jobs          map[string]*batchv1.Job
	services      map[string]*corev1.Service
	configMaps    map[string]*corev1.ConfigMap
	secrets       map[string]*corev1.Secret
	claims        map[string]*corev1.PersistentVolumeClaim
	namespaces    map[string]*corev1.Namespace
	scaledObjects map[string]*scaledObject
	// all holds each object's metadata, for the checks every kind shares.
	all []objectMeta
}

type objectMeta struct {
	kind string
	meta metav1.ObjectMeta
}

func newObjects() *objects {
	return &objects{
		deployments:   map[string]*appsv1.Deployment{},
		jobs:          map[string]*batchv1.Job{},
		services:      map[string]*corev1.Service{},
		configMaps:    map[string]*corev1.ConfigMap{},
		secrets:       map[string]*corev1.Secret{},
		claims:        map[string]*corev1.PersistentVolumeClaim{},
		namespaces:    map[string]*corev1.Namespace{},
		scaledObjects: map[string]*scaledObject{},
	}
}

// add files a decoded object; a second object of one kind and name is an
// error.
func (o *objects) add(obj any) error {
	var (
		kind string
		meta metav1.ObjectMeta
		dup  bool
	)
	switch v := obj.(type) {
	case *appsv1.Deployment:
		kind, meta, dup = "Deployment", v.ObjectMeta, put(o.deployments, v.Name, v)
	case *batchv1.Job:
		kind, meta, dup = "Job", v.ObjectMeta, put(o.jobs, v.Name, v)
	case *corev1.Service:
		kind, meta, dup = "Service", v.ObjectMeta, put(o.services, v.Name, v)
	case *corev1.ConfigMap:
		kind, meta, dup = "ConfigMap", v.ObjectMeta, put(o.configMaps, v.Name, v)
	case *corev1.Secret:
		kind, meta, dup = "Secret", v.ObjectMeta, put(o.secrets, v.Name, v)
	case *corev1.PersistentVolumeClaim:
		kind, meta, dup = "PersistentVolumeClaim", v.ObjectMeta, put(o.claims, v.Name, v)
	case *corev1.Namespace:
		kind, meta, dup = "Namespace", v.ObjectMeta, put(o.namespaces, v.Name, v)
	case *scaledObject:
		kind, meta, dup = "ScaledObject", v.ObjectMeta, put(o.scaledObjects, v.Name, v)
	default:
		return fmt.Errorf("unexpected %T", obj)
	}
	if dup {
		return fmt.Errorf("two %ss named %s", kind, meta.Name)
	}
	o.all = append(o.all, objectMeta{kind: kind, meta: meta})
	return nil
}

// put sets m[name] and reports whether it was set already.
func put[V any](m map[string]V, name string, v V) bool {
	_, dup := m[name]
	m[name] = v
	return dup
}

// problems collects what a check found wrong.
type problems []string

func (p *problems) addf(format string, args ...any) {
	*p = append(*p, fmt.Sprintf(format, args...))
}

// report fails t with every problem.
func (p problems) report(t *testing.T, what string) {
	t.Helper()
	for _, s := range p {
		t.Errorf("%s: %s", what, s)
	}
}

// requireTree skips under Bazel when the manifests were not given to the
// test as data, and fails anywhere else.
func requireTree(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("base/kustomization.yaml"); err != nil {
		if os.Getenv("TEST_SRCDIR") != "" {
			t.Skipf("the manifests are not in this test's runfiles: %v", err)
		}
		t.Fatal(err)
	}
}

// loadTree copies base/, overlays/ and testdata/ into an in-memory file
// system under root, without the overlays' keys/ directories: they may hold
// a developer's real keys, and the test writes stand-ins instead
// (placeholderKeys). In memory, kustomize also never meets Bazel's runfiles
// symlinks, which its loader would refuse as files outside the
// kustomization root.
func loadTree(t *testing.T) filesys.FileSystem {
	t.Helper()
	requireTree(t)
	mem := filesys.MakeFsInMemory()
	for _, dir := range []string{"base", "overlays", "testdata"} {
		err := fs.WalkDir(os.DirFS("."), dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "keys" {
					return fs.SkipDir
				}
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return mem.WriteFile(path.Join(root, p), b)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return mem
}

// kustomizations lists the directories under root holding a
// kustomization.yaml, relative to root.
func kustomizations(t *testing.T, mem filesys.FileSystem) []string {
	t.Helper()
	var dirs []string
	err := mem.Walk(root, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() && path.Base(p) == "kustomization.yaml" {
			rel := strings.TrimPrefix(path.Dir(p), root+"/")
			dirs = append(dirs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dirs)
	if !slices.Contains(dirs, "base") {
		t.Fatalf("no base/kustomization.yaml among %v", dirs)
	}
	return dirs
}

// readKustomization decodes dir/kustomization.yaml the way kustomize does,
// refusing unknown fields.
func readKustomization(mem filesys.FileSystem, dir string) (*types.Kustomization, error) {
	b, err := mem.ReadFile(path.Join(root, dir, "kustomization.yaml"))
	if err != nil {
		return nil, err
	}
	k := &types.Kustomization{}
	if err := k.Unmarshal(b); err != nil {
		return nil, fmt.Errorf("%s/kustomization.yaml: %w", dir, err)
	}
	return k, nil
}

// placeholderKeys writes a stand-in for every file under keys/ that the
// kustomization in dir feeds to a generator, as `sealgate keys services` and
// `sealgate keys generate` would have made them. kustomize copies bytes; it
// never parses a key.
func placeholderKeys(mem filesys.FileSystem, dir string) error {
	k, err := readKustomization(mem, dir)
	if err != nil {
		return err
	}
	var sources []string
	for _, g := range k.ConfigMapGenerator {
		sources = append(sources, g.FileSources...)
	}
	for _, g := range k.SecretGenerator {
		sources = append(sources, g.FileSources...)
	}
	for _, s := range sources {
		if _, p, ok := strings.Cut(s, "="); ok {
			s = p
		}
		if !strings.HasPrefix(s, "keys/") {
			continue
		}
		stand := []byte("stand-in written by deploy_test.go, not a key\n")
		if path.Base(s) == trustKey {
			stand = []byte("{}\n")
		}
		if err := mem.WriteFile(path.Join(root, dir, s), stand); err != nil {
			return err
		}
	}
	return nil
}

// render builds the kustomization in dir and decodes every object.
func render(mem filesys.FileSystem, dir string, d *decoder) (*objects, error) {
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(mem, path.Join(root, dir))
	if err != nil {
		return nil, err
	}
	o := newObjects()
	for _, r := range m.Resources() {
		b, err := r.MarshalJSON()
		if err != nil {
			return nil, err
		}
		obj, err := d.decode(b)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", r.GetKind(), r.GetName(), err)
		}
		if err := o.add(obj); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// renderAll renders every kustomization of the tree.
func renderAll(t *testing.T) (map[string]*objects, filesys.FileSystem) {
	t.Helper()
	mem := loadTree(t)
	d := newDecoder(t)
	out := map[string]*objects{}
	for _, dir := range kustomizations(t, mem) {
		if err := placeholderKeys(mem, dir); err != nil {
			t.Fatal(err)
		}
		o, err := render(mem, dir, d)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		out[dir] = o
	}
	return out, mem
}

// TestRender renders every kustomization, decodes every object strictly,
// and checks what the manifests promise.
func TestRender(t *testing.T) {
	renders, mem := renderAll(t)
	for dir, o := range renders {
		t.Run(dir, func(t *testing.T) {
			// The base leaves the keys and the trust policy to an overlay;
			// an overlay is deployable and must refer to nothing missing.
			deployable := dir != "base"
			var p problems
			checkObjects(&p, o, deployable)
			checkDeployments(&p, o, deployable)
			checkScaledObjects(&p, o)
			checkTopics(&p, o)
			if dir == "base" {
				checkBaseImage(&p, mem, o)
			}
			p.report(t, dir)
		})
	}
}

// checkObjects checks names, namespaces and the Services' selectors.
func checkObjects(p *problems, o *objects, deployable bool) {
	namespaces := map[string]bool{}
	for _, m := range o.all {
		if errs := validation.IsDNS1123Subdomain(m.meta.Name); len(errs) > 0 {
			p.addf("%s %q: %s", m.kind, m.meta.Name, strings.Join(errs, "; "))
		}
		if m.kind != "Namespace" {
			namespaces[m.meta.Namespace] = true
		}
	}
	if len(namespaces) > 1 {
		p.addf("objects in several namespaces: %v", namespaces)
	}
	for name := range o.namespaces {
		if !namespaces[name] {
			p.addf("Namespace %s holds none of the objects (they are in %v)", name, namespaces)
		}
	}
	for _, svc := range o.services {
		if len(svc.Spec.Selector) == 0 {
			p.addf("Service %s selects no pods", svc.Name)
			continue
		}
		sel := labels.SelectorFromSet(svc.Spec.Selector)
		matched := false
		for _, d := range o.deployments {
			if !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
				continue
			}
			matched = true
			for _, port := range svc.Spec.Ports {
				if !hasPort(d.Spec.Template.Spec.Containers, port.TargetPort.String()) {
					p.addf("Service %s: target port %s is no port of Deployment %s", svc.Name, port.TargetPort.String(), d.Name)
				}
			}
		}
		if !matched && deployable {
			p.addf("Service %s selects the pods of no Deployment", svc.Name)
		}
	}
}

func hasPort(cs []corev1.Container, port string) bool {
	for _, c := range cs {
		for _, cp := range c.Ports {
			if cp.Name == port || strconv.Itoa(int(cp.ContainerPort)) == port {
				return true
			}
		}
	}
	return false
}

// sameName reports whether got is want, or want with the content hash
// kustomize appends to a generated ConfigMap or Secret.
func sameName(got, want string) bool {
	if got == want {
		return true
	}
	hash, ok := strings.CutPrefix(got, want+"-")
	return ok && len(hash) == 10 && !strings.ContainsFunc(hash, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	})
}

// sealgateDeployments maps service name to its Deployment: those labelled
// part of sealgate, by component.
func sealgateDeployments(p *problems, o *objects) map[string]*appsv1.Deployment {
	out := map[string]*appsv1.Deployment{}
	for _, d := range o.deployments {
		if d.Labels[partOfLabel] != "sealgate" {
			continue
		}
		svc := d.Labels[componentLabel]
		if prev, ok := out[svc]; ok {
			p.addf("Deployments %s and %s both run %q", prev.Name, d.Name, svc)
		}
		out[svc] = d
	}
	return out
}

// checkDeployments checks that exactly the eight services have a Deployment
// each, and what each must be.
func checkDeployments(p *problems, o *objects, deployable bool) {
	byService := sealgateDeployments(p, o)
	for svc := range byService {
		if !slices.Contains(services(), svc) {
			p.addf("Deployment %s runs %q, which is not a sealgate service", byService[svc].Name, svc)
		}
	}
	images := map[string]bool{}
	for _, svc := range services() {
		d, ok := byService[svc]
		if !ok {
			p.addf("no Deployment for the %s service", svc)
			continue
		}
		if !strings.Contains(d.Name, "sealgate-"+svc) {
			p.addf("Deployment %s runs %s: name it sealgate-%s", d.Name, svc, svc)
		}
		if _, ok := keyring.Roles()["sealgate/"+svc]; !ok {
			p.addf("%s: the keyring has no identity sealgate/%s", d.Name, svc)
		}
		checkDeployment(p, o, svc, d, deployable)
		for _, c := range d.Spec.Template.Spec.Containers {
			images[c.Image] = true
		}
	}
	if len(images) > 1 {
		p.addf("the sealgate Deployments run different images: %v", images)
	}
}

func checkDeployment(p *problems, o *objects, svc string, d *appsv1.Deployment, deployable bool) {
	spec := &d.Spec.Template.Spec
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	switch {
	case err != nil:
		p.addf("%s: selector: %v", d.Name, err)
	case sel.Empty():
		p.addf("%s: empty selector", d.Name)
	case !sel.Matches(labels.Set(d.Spec.Template.Labels)):
		p.addf("%s: the selector does not match the pod template's labels", d.Name)
	}
	if runsTests(svc) {
		if d.Spec.Replicas != nil {
			p.addf("%s: KEDA sets the replicas: leave spec.replicas out", d.Name)
		}
	} else if d.Spec.Replicas == nil {
		p.addf("%s: spec.replicas is not set", d.Name)
	}
	if len(spec.Containers) != 1 || len(spec.InitContainers) > 0 {
		p.addf("%s: want one container, have %d (and %d init containers)", d.Name, len(spec.Containers), len(spec.InitContainers))
		return
	}
	c := &spec.Containers[0]
	if c.Name != svc {
		p.addf("%s: container %q, want %q", d.Name, c.Name, svc)
	}
	if !slices.Equal(c.Command, []string{"sealgate"}) {
		p.addf("%s: command %q, want [sealgate]", d.Name, c.Command)
	}
	flags := checkServeArgs(p, d.Name, svc, c.Args)
	checkEnvRefs(p, d.Name, c)
	checkPodSecurity(p, d.Name, svc, spec)
	checkResources(p, d.Name, c)
	mounts := checkVolumes(p, o, d.Name, spec, deployable)
	checkKeys(p, o, d.Name, svc, spec, mounts, deployable)
	if got, ok := mounts[trustDir]; !ok || got.ConfigMap == nil || !sameName(got.ConfigMap.Name, configMap) ||
		!slices.ContainsFunc(got.ConfigMap.Items, func(k corev1.KeyToPath) bool { return k.Key == trustKey && k.Path == trustKey }) {
		p.addf("%s: %s is not the %s item of ConfigMap %s", d.Name, trustDir, trustKey, configMap)
	}
	if flags["trust"] != trustDir+"/"+trustKey {
		p.addf("%s: --trust=%s, want %s/%s", d.Name, flags["trust"], trustDir, trustKey)
	}
	if flags["keys"] != keysDir {
		p.addf("%s: --keys=%s, want %s", d.Name, flags["keys"], keysDir)
	}
	checkPartitionsFlag(p, o, d.Name, c, flags, "partitions", partitionsVar)
	if runsTests(svc) {
		checkPartitionsFlag(p, o, d.Name, c, flags, "work-partitions", workPartitionsVar)
	}
	switch svc {
	case "ledger":
		if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
			p.addf("%s: the ledger service is the records topic's single writer: want replicas 1 and the Recreate strategy", d.Name)
		}
	case "gateway":
		checkGateway(p, o, d, c, flags)
	case "signing":
		if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
			p.addf("%s: the embedded log has one writer: want replicas 1 and the Recreate strategy", d.Name)
		}
		if flags["signing-key"] != verdictDir+"/"+verdictKey {
			p.addf("%s: --signing-key=%s, want %s/%s", d.Name, flags["signing-key"], verdictDir, verdictKey)
		}
		if flags["tlog"] == "embedded" {
			if v, ok := mounts[flags["state"]]; !ok || v.PersistentVolumeClaim == nil {
				p.addf("%s: --tlog=embedded keeps the log in --state=%q, which must be a PersistentVolumeClaim's mount", d.Name, flags["state"])
			}
		}
	}
}

// checkServeArgs checks `serve <service> --flag=value...` and returns the
// flags.
func checkServeArgs(p *problems, name, svc string, args []string) map[string]string {
	flags := map[string]string{}
	if len(args) < 2 || args[0] != "serve" || args[1] != svc {
		p.addf("%s: args %q do not start with [serve %s]", name, args, svc)
		return flags
	}
	for _, a := range args[2:] {
		f, v, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !strings.HasPrefix(a, "--") || !ok {
			p.addf("%s: argument %q: write flags as --name=value", name, a)
			continue
		}
		switch {
		case !slices.Contains(allServeFlags(), f):
			p.addf("%s: --%s is no flag of `sealgate serve`", name, f)
		case !slices.Contains(serveFlags(svc), f):
			p.addf("%s: --%s is no flag of `sealgate serve %s`", name, f, svc)
		}
		if _, dup := flags[f]; dup {
			p.addf("%s: --%s given twice", name, f)
		}
		flags[f] = v
	}
	want := map[string]string{
		"ledger":  "kafka",
		"brokers": "$(KAFKA_BROKERS)",
		"blobs":   "$(SEALGATE_BLOBS)",
	}
	switch svc {
	case "gateway":
		want["listen"] = ":" + strconv.Itoa(gatewayPort)
	case "executor", "mutation":
		// Fail closed: never run tests unconfined.
		want["sandbox"] = "bwrap"
	}
	for f, v := range want {
		if flags[f] != v {
			p.addf("%s: --%s=%s, want %s", name, f, flags[f], v)
		}
	}
	return flags
}

// checkEnvRefs checks that each $(VAR) of the command line names a variable
// of the container: Kubernetes leaves an unknown one as it is.
func checkEnvRefs(p *problems, name string, c *corev1.Container) {
	declared := map[string]bool{}
	for _, e := range c.Env {
		declared[e.Name] = true
	}
	ref := regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)
	for _, a := range slices.Concat(c.Command, c.Args) {
		for _, m := range ref.FindAllStringSubmatch(a, -1) {
			if !declared[m[1]] {
				p.addf("%s: %q refers to $(%s), which the container does not declare", name, a, m[1])
			}
		}
	}
}

// envValue resolves a variable of container c: its value, or the key of
// the ConfigMap it names.
func envValue(o *objects, c *corev1.Container, name string) (string, error) {
	for _, e := range c.Env {
		if e.Name != name {
			continue
		}
		switch {
		case e.ValueFrom == nil:
			return e.Value, nil
		case e.ValueFrom.ConfigMapKeyRef != nil:
			ref := e.ValueFrom.ConfigMapKeyRef
			cm, ok := o.configMaps[ref.Name]
			if !ok {
				return "", fmt.Errorf("$%s: no ConfigMap %s", name, ref.Name)
			}
			v, ok := cm.Data[ref.Key]
			if !ok {
				return "", fmt.Errorf("$%s: ConfigMap %s has no key %s", name, ref.Name, ref.Key)
			}
			return v, nil
		}
		return "", fmt.Errorf("$%s comes from neither a value nor a ConfigMap", name)
	}
	return "", fmt.Errorf("container %s declares no $%s", c.Name, name)
}

// expandArg expands the $(VAR) references of an argument as the kubelet
// does, from container c's variables.
func expandArg(o *objects, c *corev1.Container, arg string) (string, error) {
	var errs []error
	out := regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`).ReplaceAllStringFunc(arg, func(ref string) string {
		v, err := envValue(o, c, ref[2:len(ref)-1])
		if err != nil {
			errs = append(errs, err)
		}
		return v
	})
	return out, errors.Join(errs...)
}

// checkPartitionsFlag checks that a service's --partitions (or
// --work-partitions) is the topics Job's partition count, the variable
// envVar: `sealgate serve` creates a missing topic with it, so whichever of
// the two creates a topic, its partitions are the same.
func checkPartitionsFlag(p *problems, o *objects, name string, c *corev1.Container, flags map[string]string, flag, envVar string) {
	v, ok := flags[flag]
	if !ok {
		p.addf("%s: no --%s: serve would create a missing topic with its default count, not the topics Job's", name, flag)
		return
	}
	got, err := expandArg(o, c, v)
	if err != nil {
		p.addf("%s: --%s=%s: %v", name, flag, v, err)
		return
	}
	n, err := strconv.Atoi(got)
	if err != nil || n < 1 {
		p.addf("%s: --%s=%s is %q: want a positive integer", name, flag, v, got)
		return
	}
	if want := jobEnvInt(&problems{}, o, envVar); want > 0 && n != want {
		p.addf("%s: --%s=%s is %d, but the topics Job creates %d partitions: they must agree", name, flag, v, n, want)
	}
}

func checkPodSecurity(p *problems, name, svc string, spec *corev1.PodSpec) {
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		p.addf("%s: the services never call the Kubernetes API: set automountServiceAccountToken: false", name)
	}
	if spec.EnableServiceLinks == nil || *spec.EnableServiceLinks {
		p.addf("%s: set enableServiceLinks: false", name)
	}
	ps := spec.SecurityContext
	if ps == nil || ps.RunAsNonRoot == nil || !*ps.RunAsNonRoot {
		p.addf("%s: the pod must set runAsNonRoot", name)
	}
	c := &spec.Containers[0]
	cs := c.SecurityContext
	if cs == nil {
		p.addf("%s: container %s has no securityContext", name, c.Name)
		return
	}
	if cs.AllowPrivilegeEscalation == nil || *cs.AllowPrivilegeEscalation {
		p.addf("%s: set allowPrivilegeEscalation: false", name)
	}
	if cs.Privileged != nil && *cs.Privileged {
		p.addf("%s: privileged", name)
	}
	if cs.ReadOnlyRootFilesystem == nil || !*cs.ReadOnlyRootFilesystem {
		p.addf("%s: set readOnlyRootFilesystem: true", name)
	}
	if cs.Capabilities == nil || !slices.Equal(cs.Capabilities.Drop, []corev1.Capability{"ALL"}) || len(cs.Capabilities.Add) > 0 {
		p.addf("%s: drop ALL capabilities and add none", name)
	}
	if cs.ProcMount != nil && *cs.ProcMount != corev1.DefaultProcMount {
		p.addf("%s: procMount %s: the sandbox mounts no procfs", name, *cs.ProcMount)
	}
	seccomp := cs.SeccompProfile
	if seccomp == nil && ps != nil {
		seccomp = ps.SeccompProfile
	}
	if runsTests(svc) {
		// bubblewrap: see base/executor.yaml.
		if spec.HostUsers == nil || *spec.HostUsers {
			p.addf("%s: runs tests: set hostUsers: false (a user namespace for the pod)", name)
		}
		if seccomp == nil || seccomp.Type != corev1.SeccompProfileTypeUnconfined {
			p.addf("%s: runs tests in bubblewrap, which the runtime's default seccomp profile stops: want seccompProfile Unconfined on the container", name)
		}
		if ps != nil && ps.SeccompProfile != nil && ps.SeccompProfile.Type == corev1.SeccompProfileTypeUnconfined {
			p.addf("%s: set seccompProfile Unconfined on the container only", name)
		}
	} else if seccomp == nil || seccomp.Type != corev1.SeccompProfileTypeRuntimeDefault {
		p.addf("%s: runs no tests: want seccompProfile RuntimeDefault", name)
	}
}

func checkResources(p *problems, name string, c *corev1.Container) {
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage} {
		req, okReq := c.Resources.Requests[r]
		lim, okLim := c.Resources.Limits[r]
		switch {
		case !okReq || !okLim:
			p.addf("%s: want a request and a limit of %s", name, r)
		case req.Sign() <= 0:
			p.addf("%s: %s request %s", name, r, req.String())
		case req.Cmp(lim) > 0:
			p.addf("%s: %s request %s exceeds the limit %s", name, r, req.String(), lim.String())
		}
	}
}

// checkVolumes checks that every volume has one source and every mount a
// volume, that in a deployable render the ConfigMaps, Secrets and claims the
// volumes name exist, and returns the volumes by mount path.
func checkVolumes(p *problems, o *objects, name string, spec *corev1.PodSpec, deployable bool) map[string]*corev1.Volume {
	vols := map[string]*corev1.Volume{}
	for i := range spec.Volumes {
		v := &spec.Volumes[i]
		src, err := json.Marshal(v.VolumeSource)
		var m map[string]json.RawMessage
		if err == nil {
			err = json.Unmarshal(src, &m)
		}
		if err != nil || len(m) != 1 {
			p.addf("%s: volume %s: want exactly one source, have %s", name, v.Name, src)
		}
		vols[v.Name] = v
		if !deployable {
			continue
		}
		switch {
		case v.ConfigMap != nil:
			cm, ok := o.configMaps[v.ConfigMap.Name]
			if !ok {
				p.addf("%s: volume %s: no ConfigMap %s", name, v.Name, v.ConfigMap.Name)
				continue
			}
			for _, it := range v.ConfigMap.Items {
				if _, ok := cm.Data[it.Key]; !ok {
					p.addf("%s: volume %s: ConfigMap %s has no key %s", name, v.Name, cm.Name, it.Key)
				}
			}
		case v.Secret != nil:
			s, ok := o.secrets[v.Secret.SecretName]
			if !ok {
				p.addf("%s: volume %s: no Secret %s", name, v.Name, v.Secret.SecretName)
				continue
			}
			for _, it := range v.Secret.Items {
				if _, ok := s.Data[it.Key]; !ok {
					p.addf("%s: volume %s: Secret %s has no key %s", name, v.Name, s.Name, it.Key)
				}
			}
		case v.PersistentVolumeClaim != nil:
			if _, ok := o.claims[v.PersistentVolumeClaim.ClaimName]; !ok {
				p.addf("%s: volume %s: no PersistentVolumeClaim %s", name, v.Name, v.PersistentVolumeClaim.ClaimName)
			}
		}
	}
	mounts := map[string]*corev1.Volume{}
	for _, c := range spec.Containers {
		for _, vm := range c.VolumeMounts {
			v, ok := vols[vm.Name]
			if !ok {
				p.addf("%s: mount %s names no volume (%s)", name, vm.MountPath, vm.Name)
				continue
			}
			if _, dup := mounts[vm.MountPath]; dup {
				p.addf("%s: two mounts at %s", name, vm.MountPath)
			}
			mounts[vm.MountPath] = v
			if (v.Secret != nil || v.ConfigMap != nil) && !vm.ReadOnly {
				p.addf("%s: mount %s of %s: mount keys and configuration read-only", name, vm.MountPath, v.Name)
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom == nil || e.ValueFrom.ConfigMapKeyRef == nil || !deployable {
				continue
			}
			ref := e.ValueFrom.ConfigMapKeyRef
			if cm, ok := o.configMaps[ref.Name]; !ok {
				p.addf("%s: $%s: no ConfigMap %s", name, e.Name, ref.Name)
			} else if _, ok := cm.Data[ref.Key]; !ok {
				p.addf("%s: $%s: ConfigMap %s has no key %s", name, e.Name, ref.Name, ref.Key)
			}
		}
	}
	return mounts
}

// checkKeys checks that a service's pod gets its own ledger key and no
// other Secret — the signing service also the verdict key — mounted where
// --keys and --signing-key look, and that in a deployable render each
// Secret holds exactly that key file.
func checkKeys(p *problems, o *objects, name, svc string, spec *corev1.PodSpec, mounts map[string]*corev1.Volume, deployable bool) {
	want := map[string][]string{keySecret(svc): {keyring.FileName("sealgate/" + svc)}}
	if svc == "signing" {
		want[verdictSecret] = []string{verdictKey}
	}
	var refs []string
	for _, v := range spec.Volumes {
		if v.Secret != nil {
			refs = append(refs, v.Secret.SecretName)
		}
		if v.Projected != nil {
			for _, s := range v.Projected.Sources {
				if s.Secret != nil {
					refs = append(refs, s.Secret.Name)
				}
			}
		}
	}
	for _, c := range slices.Concat(spec.Containers, spec.InitContainers) {
		for _, e := range c.EnvFrom {
			if e.SecretRef != nil {
				refs = append(refs, e.SecretRef.Name)
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				refs = append(refs, e.ValueFrom.SecretKeyRef.Name)
			}
		}
	}
	found := map[string]bool{}
	for _, ref := range refs {
		mine := false
		for w, files := range want {
			if !sameName(ref, w) {
				continue
			}
			mine, found[w] = true, true
			if s, ok := o.secrets[ref]; deployable && ok {
				var keys []string
				for k := range s.Data {
					keys = append(keys, k)
				}
				for k := range s.StringData {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				if !slices.Equal(keys, files) {
					p.addf("%s: Secret %s holds %v, want only %v", name, ref, keys, files)
				}
			}
		}
		if !mine {
			p.addf("%s: the %s service may hold only its own key, but it is given Secret %s", name, svc, ref)
		}
	}
	for w := range want {
		if !found[w] {
			p.addf("%s: Secret %s is not given to the pod", name, w)
		}
	}
	if v, ok := mounts[keysDir]; !ok || v.Secret == nil || !sameName(v.Secret.SecretName, keySecret(svc)) {
		p.addf("%s: %s is not a mount of Secret %s", name, keysDir, keySecret(svc))
	}
	if svc == "signing" {
		if v, ok := mounts[verdictDir]; !ok || v.Secret == nil || !sameName(v.Secret.SecretName, verdictSecret) {
			p.addf("%s: %s is not a mount of Secret %s", name, verdictDir, verdictSecret)
		}
	}
	for _, v := range spec.Volumes {
		if v.Secret != nil && (v.Secret.DefaultMode == nil || *v.Secret.DefaultMode&0o007 != 0) {
			p.addf("%s: volume %s: key files must not be world-readable (defaultMode 0440)", name, v.Name)
		}
	}
}

func checkGateway(p *problems, o *objects, d *appsv1.Deployment, c *corev1.Container, flags map[string]string) {
	if !slices.ContainsFunc(c.Ports, func(cp corev1.ContainerPort) bool {
		return cp.ContainerPort == gatewayPort && cp.Name == "grpc"
	}) {
		p.addf("%s: no container port grpc %d", d.Name, gatewayPort)
	}
	for what, pr := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		if pr == nil || pr.GRPC == nil || pr.GRPC.Port != gatewayPort {
			p.addf("%s: want a gRPC %s probe on port %d", d.Name, what, gatewayPort)
		}
	}
	if pr := c.ReadinessProbe; pr != nil && pr.GRPC != nil && (pr.GRPC.Service == nil || *pr.GRPC.Service != gateService) {
		p.addf("%s: the readiness probe should ask for %s", d.Name, gateService)
	}
	exposed := false
	for _, s := range o.services {
		if len(s.Spec.Selector) > 0 && labels.SelectorFromSet(s.Spec.Selector).Matches(labels.Set(d.Spec.Template.Labels)) {
			exposed = true
		}
	}
	if !exposed {
		p.addf("%s: no Service exposes the Gate API", d.Name)
	}
}

// checkScaledObjects checks that exactly the executor and mutation services
// are scaled, each on its lanes' consumer group's lag on the work topic.
func checkScaledObjects(p *problems, o *objects) {
	byService := sealgateDeployments(&problems{}, o)
	scaled := map[string]bool{}
	partitions := jobEnvInt(p, o, workPartitionsVar)
	for _, so := range o.scaledObjects {
		ref := so.Spec.ScaleTargetRef
		if (ref.Kind != "" && ref.Kind != "Deployment") || (ref.APIVersion != "" && ref.APIVersion != "apps/v1") {
			p.addf("ScaledObject %s scales a %s %s, want an apps/v1 Deployment", so.Name, ref.APIVersion, ref.Kind)
			continue
		}
		d, ok := o.deployments[ref.Name]
		if !ok {
			p.addf("ScaledObject %s scales Deployment %s, which is not in the render", so.Name, ref.Name)
			continue
		}
		svc := d.Labels[componentLabel]
		if byService[svc] != d {
			p.addf("ScaledObject %s scales %s, which is no sealgate service", so.Name, d.Name)
			continue
		}
		if scaled[svc] {
			p.addf("two ScaledObjects scale %s", d.Name)
		}
		scaled[svc] = true
		c := d.Spec.Template.Spec.Containers[0]
		if ref.EnvSourceContainerName != c.Name {
			p.addf("ScaledObject %s: envSourceContainerName %q, want %q", so.Name, ref.EnvSourceContainerName, c.Name)
		}
		if min := so.Spec.MinReplicaCount; min == nil || *min != 1 {
			p.addf("ScaledObject %s: want minReplicaCount 1 (a job token never waits for a cold start)", so.Name)
		}
		if max := so.Spec.MaxReplicaCount; max == nil || *max < 1 {
			p.addf("ScaledObject %s: no maxReplicaCount", so.Name)
		} else if partitions > 0 && int(*max)*jobLanes > partitions {
			p.addf("ScaledObject %s: maxReplicaCount %d with %d lanes each exceeds the %d partitions of %s: the lanes past them would sit idle", so.Name, *max, jobLanes, partitions, workTopic)
		}
		if len(so.Spec.Triggers) != 1 || so.Spec.Triggers[0].Type != "kafka" {
			p.addf("ScaledObject %s: want one kafka trigger", so.Name)
			continue
		}
		checkKafkaTrigger(p, so.Name, svc, so.Spec.Triggers[0].Metadata, &c)
	}
	for _, svc := range services() {
		if runsTests(svc) != scaled[svc] {
			p.addf("%s: scaled by KEDA %v, want %v", svc, scaled[svc], runsTests(svc))
		}
	}
}

func checkKafkaTrigger(p *problems, name, svc string, md map[string]string, c *corev1.Container) {
	for k := range md {
		if !slices.Contains(kafkaTriggerMetadata(), k) {
			p.addf("ScaledObject %s: trigger metadata %q is nothing KEDA's kafka scaler reads", name, k)
		}
	}
	if md["consumerGroup"] != svc+".work" {
		p.addf("ScaledObject %s: consumerGroup %q, want %q (the group of the service's lanes)", name, md["consumerGroup"], svc+".work")
	}
	if md["topic"] != workTopic {
		p.addf("ScaledObject %s: topic %q, want %s (the lanes take the jobs from the work topic)", name, md["topic"], workTopic)
	}
	if md["allowIdleConsumers"] == "true" {
		p.addf("ScaledObject %s: allowIdleConsumers scales past the partitions, to replicas that would sit idle", name)
	}
	switch env := md["bootstrapServersFromEnv"]; {
	case env != "":
		if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == env }) {
			p.addf("ScaledObject %s: bootstrapServersFromEnv %s is no variable of container %s", name, env, c.Name)
		}
	case md["bootstrapServers"] == "":
		p.addf("ScaledObject %s: no bootstrapServers", name)
	}
	if n, err := strconv.Atoi(md["lagThreshold"]); err != nil || n < 1 {
		p.addf("ScaledObject %s: lagThreshold %q: want a positive integer", name, md["lagThreshold"])
	}
}

// topicsJob returns the Job that creates the topics.
func topicsJob(o *objects) *batchv1.Job {
	for _, j := range o.jobs {
		if j.Labels[componentLabel] == "topics" {
			return j
		}
	}
	return nil
}

// jobEnvInt reads a positive integer variable of the topics Job, from its
// value or its ConfigMap.
func jobEnvInt(p *problems, o *objects, name string) int {
	j := topicsJob(o)
	if j == nil || len(j.Spec.Template.Spec.Containers) != 1 {
		return 0
	}
	v, err := envValue(o, &j.Spec.Template.Spec.Containers[0], name)
	if err != nil {
		p.addf("Job %s: %v", j.Name, err)
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		p.addf("Job %s: %s=%q: want a positive integer", j.Name, name, v)
		return 0
	}
	return n
}

// checkTopics checks the Job that creates the topics.
func checkTopics(p *problems, o *objects) {
	j := topicsJob(o)
	if j == nil || len(o.jobs) != 1 {
		p.addf("want one Job, the topics', have %d", len(o.jobs))
		return
	}
	spec := j.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		p.addf("Job %s: want one container", j.Name)
		return
	}
	c := spec.Containers[0]
	if !strings.HasPrefix(c.Image, "apache/kafka:") {
		p.addf("Job %s: image %s, want Apache Kafka's (kafka-topics.sh)", j.Name, c.Image)
	}
	script := strings.Join(slices.Concat(c.Command, c.Args), "\n")
	// Each topic is made by a line `ensure TOPIC RETENTION_MS PARTITIONS`:
	// the records kept forever, the proposals and the work items for a
	// while; the ledger's two topics with SEALGATE_PARTITIONS partitions,
	// the work topic with SEALGATE_WORK_PARTITIONS.
	retention := map[string]string{}
	wantPartitions := map[string]string{recordsTopic: `"$` + partitionsVar + `"`, proposalsTopic: `"$` + partitionsVar + `"`, workTopic: `"$` + workPartitionsVar + `"`}
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "ensure" {
			continue
		}
		if len(f) != 4 {
			p.addf("Job %s: %q: want ensure TOPIC RETENTION_MS PARTITIONS", j.Name, line)
			continue
		}
		if _, dup := retention[f[1]]; dup {
			p.addf("Job %s creates %s twice", j.Name, f[1])
		}
		retention[f[1]] = f[2]
		if want, ok := wantPartitions[f[1]]; ok && f[3] != want {
			p.addf("Job %s: %s with %s partitions, want %s: the services create it with that count", j.Name, f[1], f[3], want)
		}
	}
	for topic := range retention {
		if _, ok := wantPartitions[topic]; !ok {
			p.addf("Job %s creates %s, which is no topic of sealgate serve", j.Name, topic)
		}
	}
	switch r, ok := retention[workTopic]; {
	case !ok:
		p.addf("Job %s does not create %s", j.Name, workTopic)
	case r == "-1":
		p.addf("Job %s: %s kept forever: a work item is a pointer into the ledger", j.Name, workTopic)
	case r == `"$WORK_RETENTION_MS"`:
		jobEnvInt(p, o, "WORK_RETENTION_MS")
	}
	switch r, ok := retention[recordsTopic]; {
	case !ok:
		p.addf("Job %s does not create %s", j.Name, recordsTopic)
	case r != "-1":
		p.addf("Job %s: %s with retention %s: the ledger is kept forever (-1)", j.Name, recordsTopic, r)
	}
	switch r, ok := retention[proposalsTopic]; {
	case !ok:
		p.addf("Job %s does not create %s", j.Name, proposalsTopic)
	case r == "-1":
		p.addf("Job %s: %s kept forever: what is admitted is on the records topic", j.Name, proposalsTopic)
	case r == `"$PROPOSALS_RETENTION_MS"`:
		jobEnvInt(p, o, "PROPOSALS_RETENTION_MS")
	}
	if !strings.Contains(script, "cleanup.policy=delete") || strings.Contains(script, "compact") {
		p.addf("Job %s: the records topic is never compacted (cleanup.policy=delete)", j.Name)
	}
	declared := map[string]bool{}
	for _, e := range c.Env {
		declared[e.Name] = true
	}
	for _, m := range regexp.MustCompile(`\$\{?([A-Z_][A-Z0-9_]*)`).FindAllStringSubmatch(script, -1) {
		if !declared[m[1]] {
			p.addf("Job %s: the script reads $%s, which the container does not declare", j.Name, m[1])
		}
	}
	rf, isr := jobEnvInt(p, o, "REPLICATION_FACTOR"), jobEnvInt(p, o, "MIN_INSYNC_REPLICAS")
	if isr > rf {
		p.addf("Job %s: min.insync.replicas %d above the replication factor %d: no write would succeed", j.Name, isr, rf)
	}
	jobEnvInt(p, o, partitionsVar)
	jobEnvInt(p, o, workPartitionsVar)
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		p.addf("Job %s: set automountServiceAccountToken: false", j.Name)
	}
	if spec.SecurityContext == nil || spec.SecurityContext.RunAsNonRoot == nil || !*spec.SecurityContext.RunAsNonRoot {
		p.addf("Job %s: set runAsNonRoot", j.Name)
	}
}

// checkBaseImage checks that the base names the sealgate image in one
// images: entry and that every sealgate container runs it.
func checkBaseImage(p *problems, mem filesys.FileSystem, o *objects) {
	k, err := readKustomization(mem, "base")
	if err != nil {
		p.addf("%v", err)
		return
	}
	if len(k.Images) != 1 || k.Images[0].Name != "sealgate" {
		p.addf("base: want one images: entry, for sealgate; have %+v", k.Images)
		return
	}
	img := k.Images[0]
	want := img.Name
	if img.NewName != "" {
		want = img.NewName
	}
	if img.NewTag != "" {
		want += ":" + img.NewTag
	}
	if img.Digest != "" {
		want += "@" + img.Digest
	}
	for _, d := range sealgateDeployments(&problems{}, o) {
		for _, c := range d.Spec.Template.Spec.Containers {
			if c.Image != want {
				p.addf("%s: image %s, want %s (from the images: entry)", d.Name, c.Image, want)
			}
		}
	}
}

// TestScaledObjectsFollowRenamedDeployments renders an overlay that renames
// everything: the ScaledObjects must still name their Deployments
// (base/kustomizeconfig.yaml).
func TestScaledObjectsFollowRenamedDeployments(t *testing.T) {
	mem := loadTree(t)
	const k = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namePrefix: staging-
resources:
- ../../base
`
	if err := mem.WriteFile(path.Join(root, "overlays/renamed/kustomization.yaml"), []byte(k)); err != nil {
		t.Fatal(err)
	}
	o, err := render(mem, "overlays/renamed", newDecoder(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.deployments["staging-sealgate-executor"]; !ok {
		t.Fatalf("no Deployment staging-sealgate-executor among %v", keys(o.deployments))
	}
	var p problems
	checkScaledObjects(&p, o)
	p.report(t, "renamed")
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestStrictDecodingRefuses shows that the decoding can fail: each case
// spoils one rendered object and expects an error.
func TestStrictDecodingRefuses(t *testing.T) {
	renders, _ := renderAll(t)
	d := newDecoder(t)
	base := renders["base"]
	marshal := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gateway := marshal(base.deployments["sealgate-gateway"])
	job := marshal(base.jobs["sealgate-topics"])
	executorSO := marshal(base.scaledObjects["sealgate-executor"])
	for _, tc := range []struct {
		name, obj, old, new string
	}{
		{"misspelled container field", gateway, `"containerPort":`, `"containerPrt":`},
		{"field in the wrong case", gateway, `"readOnlyRootFilesystem":`, `"readOnlyRootFileSystem":`},
		{"misspelled pod field", gateway, `"automountServiceAccountToken":`, `"automountServiceAccountTokens":`},
		{"wrong type", gateway, `"replicas":2`, `"replicas":"2"`},
		{"misspelled Job field", job, `"backoffLimit":`, `"backOffLimit":`},
		{"misspelled ScaledObject field", executorSO, `"maxReplicaCount":`, `"maxReplicas":`},
		{"misspelled ScaledObject nested field", executorSO, `"envSourceContainerName":`, `"envSourceContainer":`},
		{"misspelled ScaledObject metadata field", executorSO, `"labels":`, `"label":`},
		{"ScaledObject field of the wrong type", executorSO, `"minReplicaCount":1`, `"minReplicaCount":"1"`},
		{"ScaledObject trigger metadata not a string", executorSO, `"lagThreshold":"2"`, `"lagThreshold":2`},
		{"ScaledObject breaking the CRD's CEL rule", executorSO, `"minReplicaCount":1`, `"minReplicaCount":30`},
		{"ScaledObject of another version", executorSO, `"apiVersion":"keda.sh/v1alpha1"`, `"apiVersion":"keda.sh/v1beta1"`},
		{"KEDA kind the test does not check", executorSO, `"kind":"ScaledObject"`, `"kind":"ScaledJob"`},
		{"core kind the test does not check", gateway, `"kind":"Deployment"`, `"kind":"ReplicaSet"`},
		{"kind nobody knows", gateway, `"apiVersion":"apps/v1"`, `"apiVersion":"example.com/v1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(tc.obj, tc.old) {
				t.Fatalf("the object has no %s to spoil: %s", tc.old, tc.obj)
			}
			spoiled := strings.Replace(tc.obj, tc.old, tc.new, 1)
			if _, err := d.decode([]byte(tc.obj)); err != nil {
				t.Fatalf("the unspoiled object is refused: %v", err)
			}
			_, err := d.decode([]byte(spoiled))
			if err == nil {
				t.Fatalf("accepted %s", spoiled)
			}
			t.Logf("refused as it should be: %v", err)
		})
	}
}

// TestMisspelledManifestFailsRender spoils a file of the tree: the render
// must fail, in kustomize or in the decoding.
func TestMisspelledManifestFailsRender(t *testing.T) {
	d := newDecoder(t)
	for _, tc := range []struct {
		name, file, old, new string
	}{
		{"Deployment", "base/executor.yaml", "readOnlyRootFilesystem:", "readOnlyRootFileSytem:"},
		{"Deployment volume", "base/signing.yaml", "claimName:", "claimname:"},
		{"ScaledObject", "base/autoscaling.yaml", "minReplicaCount:", "minReplicas:"},
		{"kustomization", "base/kustomization.yaml", "configMapGenerator:", "configMapGenerators:"},
		{"overlay patch", "overlays/dev/topics.yaml", "containers:", "container:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := loadTree(t)
			p := path.Join(root, tc.file)
			b, err := mem.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(tc.old)) {
				t.Fatalf("%s has no %s to spoil", tc.file, tc.old)
			}
			if err := mem.WriteFile(p, bytes.Replace(b, []byte(tc.old), []byte(tc.new), 1)); err != nil {
				t.Fatal(err)
			}
			dir := "base"
			if strings.HasPrefix(tc.file, "overlays/dev/") {
				dir = "overlays/dev"
			}
			err = placeholderKeys(mem, dir)
			if err == nil {
				_, err = render(mem, dir, d)
			}
			if err == nil {
				t.Fatalf("%s with %s rendered and decoded without error", tc.file, tc.new)
			}
			t.Logf("refused as it should be: %v", err)
		})
	}
}

// TestChecksCatch shows that the checks of TestRender find what they are
// there for: each case breaks a decoded render and expects a problem.
func TestChecksCatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(o *objects)
		want  string
	}{
		{"another service's key", func(o *objects) {
			d := o.deployments["sealgate-executor"]
			d.Spec.Template.Spec.Volumes = append(d.Spec.Template.Spec.Volumes, corev1.Volume{
				Name:         "other",
				VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: findName(o.secrets, keySecret("signing")), DefaultMode: ptr(int32(0o440))}},
			})
		}, "may hold only its own key"},
		{"the verdict key outside signing", func(o *objects) {
			d := o.deployments["sealgate-gateway"]
			d.Spec.Template.Spec.Containers[0].Env = append(d.Spec.Template.Spec.Containers[0].Env, corev1.EnvVar{
				Name: "SEALGATE_SIGNING_KEY",
				ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
					LocalObjectReference: corev1.LocalObjectReference{Name: findName(o.secrets, verdictSecret)}, Key: verdictKey,
				}},
			})
		}, "may hold only its own key"},
		{"a Secret holding two keys", func(o *objects) {
			s := o.secrets[findName(o.secrets, keySecret("reach"))]
			s.Data["sealgate_signing.key"] = []byte("x")
		}, "want only"},
		{"a missing Deployment", func(o *objects) {
			delete(o.deployments, "sealgate-adjudication")
		}, "no Deployment for the adjudication service"},
		{"a missing ScaledObject", func(o *objects) {
			delete(o.scaledObjects, "sealgate-mutation")
		}, "mutation: scaled by KEDA false"},
		{"a ScaledObject on the wrong group", func(o *objects) {
			o.scaledObjects["sealgate-executor"].Spec.Triggers[0].Metadata["consumerGroup"] = "mutation.work"
		}, "the group of the service's lanes"},
		{"a misspelled trigger parameter", func(o *objects) {
			md := o.scaledObjects["sealgate-executor"].Spec.Triggers[0].Metadata
			md["lagTreshold"] = md["lagThreshold"]
			delete(md, "lagThreshold")
		}, `"lagTreshold" is nothing KEDA's kafka scaler reads`},
		{"a ScaledObject on a missing Deployment", func(o *objects) {
			o.scaledObjects["sealgate-executor"].Spec.ScaleTargetRef.Name = "sealgate-executer"
		}, "not in the render"},
		{"an executor without the user namespace", func(o *objects) {
			o.deployments["sealgate-executor"].Spec.Template.Spec.HostUsers = nil
		}, "hostUsers: false"},
		{"a flag serve does not have", func(o *objects) {
			c := &o.deployments["sealgate-reach"].Spec.Template.Spec.Containers[0]
			c.Args = append(c.Args, "--broker=$(KAFKA_BROKERS)")
		}, "--broker is no flag"},
		{"a flag of another service", func(o *objects) {
			c := &o.deployments["sealgate-ledger"].Spec.Template.Spec.Containers[0]
			c.Args = append(c.Args, "--listen=:9090")
		}, "--listen is no flag of `sealgate serve ledger`"},
		{"an undeclared variable", func(o *objects) {
			c := &o.deployments["sealgate-reach"].Spec.Template.Spec.Containers[0]
			c.Args = append(c.Args, "--state=$(STATE_DIR)")
		}, "does not declare"},
		{"two ledger replicas", func(o *objects) {
			o.deployments["sealgate-ledger"].Spec.Replicas = ptr(int32(2))
		}, "single writer: want replicas 1"},
		{"a rolling update of the ledger", func(o *objects) {
			o.deployments["sealgate-ledger"].Spec.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
		}, "single writer: want replicas 1 and the Recreate strategy"},
		{"a ScaledObject for the ledger", func(o *objects) {
			so := *o.scaledObjects["sealgate-executor"]
			so.Name = "sealgate-ledger"
			so.Spec.ScaleTargetRef.Name = "sealgate-ledger"
			o.scaledObjects[so.Name] = &so
		}, "ledger: scaled by KEDA true, want false"},
		{"a missing ledger", func(o *objects) {
			delete(o.deployments, "sealgate-ledger")
		}, "no Deployment for the ledger service"},
		{"--partitions other than the Job's", func(o *objects) {
			c := &o.deployments["sealgate-checkout"].Spec.Template.Spec.Containers[0]
			for i, a := range c.Args {
				if strings.HasPrefix(a, "--partitions=") {
					c.Args[i] = "--partitions=8"
				}
			}
		}, "the topics Job creates 4 partitions: they must agree"},
		{"no --partitions", func(o *objects) {
			c := &o.deployments["sealgate-adjudication"].Spec.Template.Spec.Containers[0]
			c.Args = slices.DeleteFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, "--partitions=") })
		}, "no --partitions"},
		{"a ScaledObject on another topic", func(o *objects) {
			o.scaledObjects["sealgate-mutation"].Spec.Triggers[0].Metadata["topic"] = "sealgate.jobs.v1"
		}, "want sealgate.work.v1"},
		{"more lanes than work partitions", func(o *objects) {
			o.scaledObjects["sealgate-executor"].Spec.MaxReplicaCount = ptr(int32(5))
		}, "exceeds the 8 partitions"},
		{"a Job creating a topic serve does not use", func(o *objects) {
			c := &o.jobs["sealgate-topics"].Spec.Template.Spec.Containers[0]
			c.Args[0] += "ensure sealgate.jobs.v1 604800000 \"$SEALGATE_PARTITIONS\"\n"
		}, "sealgate.jobs.v1, which is no topic"},
		{"a Job without the work topic", func(o *objects) {
			c := &o.jobs["sealgate-topics"].Spec.Template.Spec.Containers[0]
			c.Args[0] = strings.Replace(c.Args[0], "ensure "+workTopic, "ensure sealgate.works.v1", 1)
		}, "does not create sealgate.work.v1"},
		{"a work topic with the ledger's partitions", func(o *objects) {
			c := &o.jobs["sealgate-topics"].Spec.Template.Spec.Containers[0]
			c.Args[0] = strings.Replace(c.Args[0], `"$WORK_RETENTION_MS" "$SEALGATE_WORK_PARTITIONS"`, `"$WORK_RETENTION_MS" "$SEALGATE_PARTITIONS"`, 1)
		}, "the services create it with that count"},
		{"an executor without --work-partitions", func(o *objects) {
			c := &o.deployments["sealgate-executor"].Spec.Template.Spec.Containers[0]
			c.Args = slices.DeleteFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, "--work-partitions=") })
		}, "no --work-partitions"},
		{"a ScaledObject on the records group", func(o *objects) {
			o.scaledObjects["sealgate-mutation"].Spec.Triggers[0].Metadata["consumerGroup"] = "mutation"
		}, "the group of the service's lanes"},
		{"a Job without the proposals topic", func(o *objects) {
			c := &o.jobs["sealgate-topics"].Spec.Template.Spec.Containers[0]
			c.Args[0] = strings.Replace(c.Args[0], "ensure "+proposalsTopic, "ensure sealgate.proposal.v1", 1)
		}, "does not create sealgate.proposals.v1"},
		{"a records topic that expires", func(o *objects) {
			c := &o.jobs["sealgate-topics"].Spec.Template.Spec.Containers[0]
			c.Args[0] = strings.Replace(c.Args[0], "ensure "+recordsTopic+" -1", "ensure "+recordsTopic+" 604800000", 1)
		}, "kept forever (-1)"},
		{"a missing resource limit", func(o *objects) {
			delete(o.deployments["sealgate-checkout"].Spec.Template.Spec.Containers[0].Resources.Limits, corev1.ResourceMemory)
		}, "want a request and a limit of memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			renders, _ := renderAll(t)
			o := renders["overlays/dev"]
			if o == nil {
				t.Fatal("no overlays/dev render")
			}
			var before problems
			checkDeployments(&before, o, true)
			checkScaledObjects(&before, o)
			checkTopics(&before, o)
			if len(before) > 0 {
				t.Fatalf("problems before breaking anything: %v", before)
			}
			tc.spoil(o)
			var p problems
			checkDeployments(&p, o, true)
			checkScaledObjects(&p, o)
			checkTopics(&p, o)
			if !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, tc.want) }) {
				t.Fatalf("want a problem saying %q, have %q", tc.want, p)
			}
		})
	}
}

// findName returns the name in m that is want or want with a hash suffix.
func findName[V any](m map[string]V, want string) string {
	for k := range m {
		if sameName(k, want) {
			return k
		}
	}
	return want
}

func ptr[T any](v T) *T { return &v }
