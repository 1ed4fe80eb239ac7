import json,sys,collections
p=json.load(open(sys.argv[1]))
nodes={n['id']:n for n in p['nodes']}
parent={}
for n in p['nodes']:
    for c in n.get('children',[]): parent[c]=n['id']
def key(cf): return f"{cf['functionName'] or '(anon)'} {cf['url'].split('/')[-1]}:{cf['lineNumber']}:{cf['columnNumber']}"
samples=p['samples']; dts=p['timeDeltas']
t=p['startTime']; times=[]
for d in dts: t+=d; times.append(t)
busy=[nodes[s]['callFrame']['functionName'] not in ('(idle)','(program)','(garbage collector)') or nodes[s]['callFrame']['functionName']=='(garbage collector)' for s in samples]
busy=[nodes[s]['callFrame']['functionName'] not in ('(idle)',) for s in samples]
# windows of busy samples with gaps < 2ms
wins=[]; start=None; last=None
for i,b in enumerate(busy):
    if b:
        if start is None: start=i
        last=i
    elif start is not None and times[i]-times[last]>2000:
        wins.append((start,last)); start=None
if start is not None: wins.append((start,last))
wins.sort(key=lambda w: times[w[1]]-times[w[0]], reverse=True)
for w in wins[:int(sys.argv[2]) if len(sys.argv)>2 else 3]:
    a,b=w
    print(f"=== window {(times[b]-times[a])/1000:.0f} ms at +{(times[a]-p['startTime'])/1000:.0f} ms")
    self_t=collections.Counter(); incl=collections.Counter()
    for i in range(a,b+1):
        dt=times[i+1]-times[i] if i+1<len(times) else 0
        s=samples[i]; self_t[key(nodes[s]['callFrame'])]+=dt
        seen=set(); x=s
        while x is not None and x in nodes:
            k=key(nodes[x]['callFrame'])
            if k not in seen: incl[k]+=dt; seen.add(k)
            x=parent.get(x)
    print('-- self'); [print(f"{v/1000:7.1f} {k}") for k,v in self_t.most_common(15)]
    print('-- incl'); [print(f"{v/1000:7.1f} {k}") for k,v in incl.most_common(40)]
