"""The schemas of a WSDL (each xs:schema of wsdl:types, their imports of one another resolved) compiled by
libxml2's XSD validator (lxml); then each envelope given has its Body and Header entries validated against them.
Prints one line per problem; exit 0 when there are none."""
import os
import sys
import tempfile

from lxml import etree

XS = 'http://www.w3.org/2001/XMLSchema'
wsdl = etree.parse(sys.argv[1])
schemas = wsdl.findall('.//{%s}schema' % XS)
folder = tempfile.mkdtemp()
files = {}
for i, s in enumerate(schemas):
    files[s.get('targetNamespace', '')] = os.path.join(folder, 'schema%d.xsd' % i)
for s in schemas:
    for imp in s.findall('{%s}import' % XS):
        imp.set('schemaLocation', files[imp.get('namespace', '')])
    with open(files[s.get('targetNamespace', '')], 'wb') as f:
        f.write(etree.tostring(s))
# One schema importing all the others: what every entry is validated against.
main = os.path.join(folder, 'all.xsd')
with open(main, 'w') as f:
    f.write('<xs:schema xmlns:xs="%s">%s</xs:schema>' % (XS, ''.join('<xs:import namespace="%s" schemaLocation="%s"/>' % (ns, loc) if ns else '' for ns, loc in files.items())))
problems = []
try:
    compiled = [etree.XMLSchema(etree.parse(loc)) for loc in files.values()]
    everything = etree.XMLSchema(etree.parse(main))
except etree.XMLSchemaParseError as e:
    print('schema: %s' % e)
    sys.exit(1)
for envelope in sys.argv[2:]:
    env = etree.parse(envelope).getroot()
    for part in env:
        if etree.QName(part).localname not in ('Header', 'Body'):
            continue
        for entry in part:
            if etree.QName(entry).localname == 'Fault':
                entry = next((d for d in entry.iter() if etree.QName(d).localname in ('detail', 'Detail')), None)
                entry = entry[0] if entry is not None and len(entry) else None
                if entry is None:
                    continue
            doc = etree.ElementTree(entry)
            checker = everything if etree.QName(entry).namespace else compiled[list(files).index('')]
            if not checker.validate(doc):
                problems.append('%s: <%s>: %s' % (os.path.basename(envelope), etree.QName(entry).localname, checker.error_log.last_error))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
