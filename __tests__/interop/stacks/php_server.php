<?php
// PHP's SoapServer behind `php -S 127.0.0.1:<port> php_server.php`: the document/literal Orders
// service (SOAP 1.1 and 1.2 at /orders, php_orders.wsdl) and an rpc/encoded one (/rpc, php_rpc.wsdl).
// GET <path>?wsdl answers the WSDL with its addresses pointed at this server.
ini_set('soap.wsdl_cache_enabled', '0');
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = $path === '/rpc' ? __DIR__ . '/php_rpc.wsdl' : ($path === '/orders' ? __DIR__ . '/php_orders.wsdl' : null);
if ($file === null) { http_response_code(404); echo 'not found'; return; }
$here = 'http://' . $_SERVER['HTTP_HOST'];
$wsdl = str_replace('http://localhost', $here, file_get_contents($file));
if ($_SERVER['REQUEST_METHOD'] === 'GET') { header('Content-Type: text/xml; charset=utf-8'); echo $wsdl; return; }
$local = sys_get_temp_dir() . '/accord-php-' . md5($wsdl) . '.wsdl';
file_put_contents($local, $wsdl);

class Orders {
    public function getOrder($req) {
        if ($req->id == 404) throw new SoapFault('Client', 'no such order', null, ['id' => 404], 'NotFound');
        return ['getOrderResult' => ['id' => $req->id, 'total' => '12.50', 'status' => 'open']];
    }
    public function listOrders($count) {
        $out = [];
        for ($i = 1; $i <= $count; $i++) $out[] = ['id' => $i, 'total' => 10.25 * $i, 'status' => $i % 2 ? 'open' : 'shipped'];
        return $out;
    }
}
$server = new SoapServer($local, ['cache_wsdl' => WSDL_CACHE_NONE]);
$server->setObject(new Orders());
$server->handle();
