// Package deploy holds the Kubernetes manifests of sealgate's distributed mode,
// rendered with kustomize: base/ (one Deployment per service, KEDA
// ScaledObjects on Kafka consumer lag for the executor and mutation services,
// the Job that creates the topics, the configuration) and overlays/ (dev: a
// one-node cluster with its own broker). The package has no code; its tests
// render every kustomization and decode each object strictly into its
// Kubernetes API type. See README.md.
package deploy
