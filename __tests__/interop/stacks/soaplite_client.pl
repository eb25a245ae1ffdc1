#!/usr/bin/perl
# A SOAP::Lite client of the Orders service: soaplite_client.pl <endpoint> <1.1|1.2> <action> <id> [fault].
# SOAP::Lite does not read WSDL for document/literal: it is told the namespace, the action and the version.
use strict;
use warnings;
use SOAP::Lite;
my ($endpoint, $version, $action, $id, $fault) = @ARGV;
my $ns = 'urn:accord:interop:orders';
my $soap = SOAP::Lite->proxy($endpoint)->ns($ns, 'o')->on_action(sub { qq("$action") })->autotype(0);
$soap->soapversion($version);
$soap->envprefix($version eq '1.2' ? 'env' : 'soap');
my $som = $soap->call(SOAP::Data->name('o:getOrder') => SOAP::Data->name('o:id' => $id));
if ($som->fault) {
  die 'unexpected fault: ' . $som->faultstring . "\n" unless $fault;
  print 'ok fault ', $som->faultcode, "\n";
  exit 0;
}
die "expected a fault\n" if $fault;
my $order = $som->result;
die "no order\n" unless ref $order eq 'HASH';
die "id: $order->{id}\n" unless $order->{id} =~ /^-?\d+$/;
die "total: $order->{total}\n" unless $order->{total} =~ /^-?\d+(\.\d+)?$/;
die "status: $order->{status}\n" unless length $order->{status};
print "ok $order->{id} $order->{total} $order->{status}\n";
