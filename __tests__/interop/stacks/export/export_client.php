<?php
// PHP's SoapClient given the WSDL accord exported from a .spec (the stub's ?wsdl): calls the stub, checks the answer's PHP types.
$c = new SoapClient($argv[1], ['cache_wsdl' => WSDL_CACHE_NONE, 'exceptions' => true]);
$r = $c->getQuote(['symbol' => 'ACME']);
$q = $r->quote;
// xs:decimal is a string in PHP (no decimal type), a numeric one.
if (!is_string($q->price) || !is_numeric($q->price)) { fwrite(STDERR, "price is " . gettype($q->price) . "\n"); exit(1); }
if (!is_int($q->volume)) { fwrite(STDERR, "volume is " . gettype($q->volume) . "\n"); exit(1); }
if (!in_array($q->status, ['open', 'closed', 'halted'], true)) { fwrite(STDERR, "status is " . var_export($q->status, true) . "\n"); exit(1); }
if (!is_string($q->currency)) { fwrite(STDERR, "currency is " . gettype($q->currency) . "\n"); exit(1); }
$c->listSymbols([]);
try {
  $c->getQuote(['symbol' => 'NOPE']);
  fwrite(STDERR, "NOPE did not fault\n");
  exit(1);
} catch (SoapFault $f) {
  if (!isset($f->detail->unknownSymbol->symbol)) { fwrite(STDERR, "no typed detail: " . var_export($f->detail, true) . "\n"); exit(1); }
}
echo "ok {$q->price} {$q->volume} {$q->status}\n";
