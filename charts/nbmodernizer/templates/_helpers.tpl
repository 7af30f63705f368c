{{/* The chart's name. */}}
{{- define "nbmodernizer.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The full name of the release's resources (at most 63 characters). */}}
{{- define "nbmodernizer.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* name-version, the helm.sh/chart label. */}}
{{- define "nbmodernizer.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The labels every resource carries. */}}
{{- define "nbmodernizer.labels" -}}
helm.sh/chart: {{ include "nbmodernizer.chart" . }}
{{ include "nbmodernizer.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: nbmodernizer
{{- end }}

{{/* The labels selecting the operator's pod. */}}
{{- define "nbmodernizer.selectorLabels" -}}
app.kubernetes.io/name: {{ include "nbmodernizer.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end }}

{{/* The ServiceAccount's name. */}}
{{- define "nbmodernizer.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "nbmodernizer.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The operator's image. */}}
{{- define "nbmodernizer.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The runner image (`--runner-image`). */}}
{{- define "nbmodernizer.runnerImage" -}}
{{- printf "%s:%s" .Values.runner.image.repository (default .Chart.AppVersion .Values.runner.image.tag) }}
{{- end }}

{{/* The notebook's default image (`--environment-image`). */}}
{{- define "nbmodernizer.environmentImage" -}}
{{- printf "%s:%s" .Values.runner.environmentImage.repository (default .Chart.AppVersion .Values.runner.environmentImage.tag) }}
{{- end }}

{{/* True ("true") when the chart creates the S3 credentials Secret. */}}
{{- define "nbmodernizer.createS3Secret" -}}
{{- $c := .Values.s3.credentials }}
{{- if and (not $c.existingSecret) $c.accessKeyId $c.secretAccessKey }}true{{ end }}
{{- end }}

{{/* The name of the Secret the chart creates with the S3 keys. */}}
{{- define "nbmodernizer.s3SecretName" -}}
{{- default (printf "%s-s3" (include "nbmodernizer.fullname" .)) .Values.s3.runnerSecret }}
{{- end }}

{{/* The namespaces the chart creates the S3 Secret in: the release's, and the watched ones. */}}
{{- define "nbmodernizer.s3SecretNamespaces" -}}
{{- $namespaces := list .Release.Namespace }}
{{- if and .Values.s3.credentials.copyToWatchedNamespaces .Values.s3.runnerSecret }}
{{- $namespaces = concat $namespaces .Values.watchNamespaces }}
{{- end }}
{{- $namespaces | uniq | join "," }}
{{- end }}
