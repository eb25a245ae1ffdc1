<?php
// A PHP SoapClient of the rpc/encoded listOrders service: php_rpc_client.php <wsdl url> <count>. Checks the types in PHP.
[$_, $wsdl, $count] = $argv;
$client = new SoapClient($wsdl, ['exceptions' => true, 'cache_wsdl' => WSDL_CACHE_NONE]);
$orders = $client->listOrders((int) $count);
if (!is_array($orders) || count($orders) < 1) { fwrite(STDERR, 'orders: ' . var_export($orders, true) . "\n"); exit(1); }
foreach ($orders as $o) {
    if (!is_int($o->id)) { fwrite(STDERR, 'id: ' . var_export($o->id, true) . "\n"); exit(1); }
    if (!is_float($o->total) && !is_int($o->total) && !is_numeric($o->total)) { fwrite(STDERR, 'total: ' . var_export($o->total, true) . "\n"); exit(1); }
    if (!is_string($o->status)) { fwrite(STDERR, 'status: ' . var_export($o->status, true) . "\n"); exit(1); }
}
echo 'ok ' . count($orders) . "\n";
