<?php
// A PHP SoapClient of the Orders service: php_client.php <wsdl url> <1.1|1.2> <id> [fault].
// Checks the answer's types in PHP (id an int, total numeric, status a string), or that the call throws a SoapFault.
[$_, $wsdl, $version, $id] = $argv;
$wantFault = ($argv[4] ?? '') === 'fault';
$client = new SoapClient($wsdl, ['soap_version' => $version === '1.2' ? SOAP_1_2 : SOAP_1_1, 'exceptions' => true, 'cache_wsdl' => WSDL_CACHE_NONE]);
try {
    $r = $client->getOrder(['id' => (int) $id]);
} catch (SoapFault $f) {
    if (!$wantFault) { fwrite(STDERR, "SoapFault {$f->faultcode}: {$f->getMessage()}\n"); exit(1); }
    echo "ok fault {$f->faultcode}\n";
    exit(0);
}
if ($wantFault) { fwrite(STDERR, "expected a SoapFault\n"); exit(1); }
$o = $r->getOrderResult ?? $r->order ?? $r;
if (!is_int($o->id)) { fwrite(STDERR, 'id: ' . var_export($o->id, true) . "\n"); exit(1); }
if (!is_numeric($o->total)) { fwrite(STDERR, 'total: ' . var_export($o->total, true) . "\n"); exit(1); }
if (!is_string($o->status) || $o->status === '') { fwrite(STDERR, 'status: ' . var_export($o->status, true) . "\n"); exit(1); }
echo "ok {$o->id} {$o->total} {$o->status}\n";
