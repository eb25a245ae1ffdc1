#!/usr/bin/perl
# A SOAP::Lite client of the rpc/encoded listOrders service: soaplite_rpc_client.pl <endpoint> <count>.
# SOAP::Lite reads no WSDL: it decodes an encoded answer by the message alone, so the SOAP-encoded
# array must arrive as a Perl array of structs (SOAP-ENC:arrayType or an array xsi:type), not as a hash.
use strict;
use warnings;
use SOAP::Lite;
use Scalar::Util qw(reftype);
my ($endpoint, $count) = @ARGV;
my $soap = SOAP::Lite->proxy($endpoint)->uri('urn:accord:interop:rpc')->on_action(sub { '"urn:accord:interop:rpc#listOrders"' });
my $som = $soap->call('listOrders', SOAP::Data->name('count')->type('int')->value($count));
die 'fault: ' . $som->faultstring . "\n" if $som->fault;
my $orders = $som->result;
die 'not an array: ' . (reftype($orders) // 'a scalar') . "\n" unless (reftype($orders) // '') eq 'ARRAY' && @$orders >= 1;
for my $o (@$orders) {
  die "not a struct\n" unless (reftype($o) // '') eq 'HASH';
  die "id: $o->{id}\n" unless $o->{id} =~ /^-?\d+$/;
  die "total: $o->{total}\n" unless $o->{total} =~ /^-?\d+(\.\d+)?$/;
  die "status: $o->{status}\n" unless length $o->{status};
}
print 'ok ', scalar(@$orders), "\n";
