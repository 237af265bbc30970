{{/*
Virtual nodes, one per entry of .Values.nodes (a hand-made Helm template for the import tests)
*/}}
{{- range $node := .Values.nodes }}
{{- $resources := dict "cpu" 64 "memory" "512Gi" "nvidia.com/gpu" 8 }}
{{- range $i, $_ := until (int $node.count) }}
{{- end }}
{{- end }}
