# Dash node agent installer for Windows, rendered by Dash for {{DASH_SCHEME}}://{{DASH_HOST}}.
#
#   install.ps1 <dash_host> [dash_port] <secret> [interval_seconds] [--net if1,if2] [--require-https]
#
# Downloads the standalone agent (one .exe, nothing else needed) with the node secret to
# %ProgramData%\nodeagent\bin\nodeagent.exe, registers the report target with
# `nodeagent report install` (config: %ProgramData%\nodeagent\report.yaml) and runs
# `nodeagent push` as SYSTEM from boot, restarted when it stops: a scheduled task stands in for a
# Windows service, because the agent does not speak the service control protocol itself.
# Run from an elevated PowerShell.
$ErrorActionPreference = 'Stop'

$DashScheme = '{{DASH_SCHEME}}'
$AgentVersion = '{{AGENT_VERSION}}'
$TaskName = 'nodeagent'

function Show-Usage {
  Write-Error 'usage: install.ps1 <dash_host> [dash_port] <secret> [interval_seconds] [--net if1,if2] [--require-https]'
  exit 2
}
function Test-Port([string]$Value) {
  return ($Value -match '^[0-9]{1,5}$') -and ([int]$Value -ge 1) -and ([int]$Value -le 65535)
}

$positional = @()
$net = ''
$requireHttps = $false
for ($i = 0; $i -lt $args.Count; $i++) {
  $a = [string]$args[$i]
  if ($a -eq '--net') {
    if ($i + 1 -ge $args.Count) { Show-Usage }
    $i++
    $net = [string]$args[$i]
  } elseif ($a.StartsWith('--net=')) {
    $net = $a.Substring(6)
  } elseif ($a -eq '--require-https') {
    $requireHttps = $true
  } else {
    $positional += $a
  }
}

$port = ''
$interval = ''
switch ($positional.Count) {
  2 { $dashHost = $positional[0]; $secret = $positional[1] }
  3 {
    # Secrets are at least 8 characters, so a second argument of at most five digits is a port.
    if (Test-Port $positional[1]) {
      $dashHost = $positional[0]; $port = $positional[1]; $secret = $positional[2]
    } else {
      $dashHost = $positional[0]; $secret = $positional[1]; $interval = $positional[2]
    }
  }
  4 { $dashHost = $positional[0]; $port = $positional[1]; $secret = $positional[2]; $interval = $positional[3] }
  default { Show-Usage }
}

if ($dashHost -notmatch '^[A-Za-z0-9.:_-]+$') { throw "invalid host: $dashHost" }
if ($port -eq '') { $port = if ($DashScheme -eq 'https') { '443' } else { '80' } }
if (-not (Test-Port $port)) { throw "invalid port: $port" }
if ($interval -ne '' -and $interval -notmatch '^[1-9][0-9]{0,5}$') { throw "invalid interval: $interval" }
if ($net -ne '' -and $net -notmatch '^[A-Za-z0-9_.:@,-]+$') { throw "invalid --net list: $net" }
if ($requireHttps -and $DashScheme -ne 'https') { throw "--require-https: Dash is served over $DashScheme" }

$principal = New-Object Security.Principal.WindowsPrincipal([Security.Principal.WindowsIdentity]::GetCurrent())
if (-not $principal.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
  throw 'run from an elevated PowerShell (Administrator)'
}

$arch = switch ($env:PROCESSOR_ARCHITECTURE) {
  'AMD64' { 'amd64' }
  'ARM64' { 'arm64' }
  default { throw "unsupported architecture: $env:PROCESSOR_ARCHITECTURE" }
}

$urlHost = if ($dashHost.Contains(':')) { "[$dashHost]" } else { $dashHost }
$base = "${DashScheme}://${urlHost}:${port}"
$assetUrl = "$base/deploy/windows/node_windows_$arch.exe"
$reportUrl = "$base/api/node/metrics"

$binDir = Join-Path $env:ProgramData 'nodeagent\bin'
New-Item -ItemType Directory -Force -Path $binDir | Out-Null
$exe = Join-Path $binDir 'nodeagent.exe'
$download = "$exe.download"

[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
# HttpClient with automatic decompression sends `Accept-Encoding: gzip`, so Dash serves its
# compressed copy (about half the bytes); Invoke-WebRequest on PowerShell 5.1 asks for neither.
Add-Type -AssemblyName System.Net.Http
$handler = New-Object System.Net.Http.HttpClientHandler
$handler.AutomaticDecompression = [System.Net.DecompressionMethods]::GZip
$client = New-Object System.Net.Http.HttpClient($handler)
$client.Timeout = [TimeSpan]::FromMinutes(30)
try {
  $request = New-Object System.Net.Http.HttpRequestMessage([System.Net.Http.HttpMethod]::Get, $assetUrl)
  $request.Headers.Add('X-Node-Secret', $secret)
  $response = $client.SendAsync($request, [System.Net.Http.HttpCompletionOption]::ResponseHeadersRead).GetAwaiter().GetResult()
  if (-not $response.IsSuccessStatusCode) { throw "agent download failed: HTTP $([int]$response.StatusCode) ($assetUrl)" }
  $out = [System.IO.File]::Create($download)
  try { $response.Content.CopyToAsync($out).GetAwaiter().GetResult() } finally { $out.Dispose() }
} finally {
  $client.Dispose()
}
if ((Get-Item $download).Length -eq 0) { throw 'downloaded agent is empty' }
# A build that cannot start here must not replace the installed one.
$renamed = "$download.exe"
Move-Item -Force $download $renamed
& $renamed --version | Out-Null
if ($LASTEXITCODE -ne 0) { Remove-Item -Force $renamed; throw "the downloaded agent does not run on this host ($assetUrl)" }
$download = $renamed

$task = Get-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue
if ($task) { Stop-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue }
Move-Item -Force $download $exe

& $exe report install $reportUrl $secret
if ($LASTEXITCODE -ne 0) { throw 'nodeagent report install failed' }

$pushArgs = @('push')
if ($interval -ne '') { $pushArgs += $interval }
if ($net -ne '') { $pushArgs += @('--net', $net) }
if ($requireHttps) { $pushArgs += '--require-https' }

$action = New-ScheduledTaskAction -Execute $exe -Argument ($pushArgs -join ' ')
$trigger = New-ScheduledTaskTrigger -AtStartup
$runAs = New-ScheduledTaskPrincipal -UserId 'SYSTEM' -LogonType ServiceAccount -RunLevel Highest
$settings = New-ScheduledTaskSettingsSet -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) -ExecutionTimeLimit ([TimeSpan]::Zero)
Register-ScheduledTask -TaskName $TaskName -Action $action -Trigger $trigger -Principal $runAs -Settings $settings -Force | Out-Null
Start-ScheduledTask -TaskName $TaskName

Write-Output "nodeagent $AgentVersion installed; reporting to $reportUrl"
