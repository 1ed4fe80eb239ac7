import json,sys,collections
p=json.load(open(sys.argv[1]))
nodes={n['id']:n for n in p['nodes']}
parent={}
for n in p['nodes']:
    for c in n.get('children',[]): parent[c]=n['id']
self_t=collections.Counter(); incl=collections.Counter()
dts=p['timeDeltas']; samples=p['samples']
for i,s in enumerate(samples):
    dt=dts[i+1] if i+1<len(dts) else 0
    n=nodes[s]; cf=n['callFrame']
    key=lambda cf: f"{cf['functionName'] or '(anon)'} {cf['url'].split('/')[-1]}:{cf['lineNumber']}:{cf['columnNumber']}"
    self_t[key(cf)]+=dt
    seen=set(); x=s
    while x in nodes:
        k=key(nodes[x]['callFrame'])
        if k not in seen: incl[k]+=dt; seen.add(k)
        x=parent.get(x)
        if x is None: break
tot=sum(dts)
print('total ms',tot/1000)
print('--- self')
for k,v in self_t.most_common(30): print(f"{v/1000:8.1f} {k}")
print('--- inclusive')
for k,v in incl.most_common(60): print(f"{v/1000:8.1f} {k}")
