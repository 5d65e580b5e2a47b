#!/usr/bin/env python3
"""Chooses an "answer" label rule on the CALIBRATION part of the evaluation
(docs/SEARCH.md, ""answer" fitted on a calibration part"). An offline
experiment, not product code: the rule it chose was measured once on
held-out and not adopted.

    ARBITER_SHARED_DIR=../shared cargo run --release --example search_eval -- \\
        --calibrate --part calibration > /tmp/calib.txt
    python3 tools/answer_grid.py /tmp/calib.txt

The procedure was written before the calibration questions existed: a small
family of rules (A: the shipped rule; B: the shipped rule, or the three
rankings agree with a cosine and strength floor; C: the lexical rule with
lower coverage, strength and margin thresholds); the rule chosen labels the
most questions right with at least 97 % of its labels right and no
uncovered question labelled; ties go to the first in the order A, B, C,
each family listed strictest thresholds first.
"""
import sys, itertools
def load(path):
    rows=[]
    for line in open(path):
        f=line.rstrip('\n').split('\t')
        if f[0]!='EVID': continue
        kind=f[1]
        if f[2]=='-':
            rows.append(dict(kind=kind,ev=None,game=f[-1],label='None')); continue
        d=dict(kind=kind,ev=True,cov=float(f[2]),hl=float(f[3]),margin=float(f[4]),terms=int(f[5]),unk=int(f[6]),label=f[7],q=f[8],rivals=int(f[9]),weight=float(f[10]),game=f[11],strength=float(f[12]),fmargin=float(f[13]),agree=f[14]=='true',gp=int(f[15]))
        if len(f)>16 and f[16]!='-':
            d.update(cos=float(f[16]),gap=float(f[17]),lr=int(f[18]),sr=int(f[19]))
        else: d.update(cos=None,lr=None,sr=None,gap=None)
        rows.append(d)
    return rows
def score(rows,rule):
    ans=[r for r in rows if r['ev'] and rule(r)]
    hit=sum(r['kind']=='hit' for r in ans); unc=sum(r['kind']=='uncovered' for r in ans)
    answerable=sum(r['kind'] in('hit','miss') for r in rows)
    return len(ans),hit,unc,answerable
cur=lambda r: r['label']=='Answer'
def agree3(r): return r['cos'] is not None and r['lr']==0 and r['sr']==0 and r['agree'] and r['unk']==0 and r['cov']>=0.2
rules={'A current':cur}
# strictest first: among rules that tie, the first (strictest) is chosen
for c,s in itertools.product((0.7,0.6,0.5,0.4),(1.2,0.8,0)):
    rules[f'B cur|agree3 cos>={c} str>={s}']=lambda r,c=c,s=s: cur(r) or (agree3(r) and r['cos']>=c and r['strength']>=s)
for x,s,m in itertools.product((0.5,0.4),(1.6,1.4,1.2,1.0),(1.6,1.4,1.2)):
    rules[f'C cov>={x} str>={s} margin>={m}']=lambda r,x=x,s=s,m=m: r['ev'] and r['cov']>=x and r['hl']>=0.3 and r['strength']>=s and r['margin']>=m and r['rivals']==0 and r['unk']==0
rows=load(sys.argv[1])
if not any(r['kind'] in ('hit','miss') for r in rows):
    sys.exit('no answerable question with evidence: give it `search_eval -- --calibrate --part calibration` output')
print('calibration rows', len(rows), 'answerable', sum(r['kind'] in ('hit','miss') for r in rows), 'uncovered', sum(r['kind']=='uncovered' for r in rows), 'uncovered with evidence', sum(r['kind']=='uncovered' and r['ev'] is not None for r in rows))
res=[]
for name,rule in rules.items():
    n,hit,unc,a=score(rows,rule)
    res.append((name,n,hit,unc,a))
    print(f"{name:40s} labelled {n:3d} right {hit:3d} prec {100*hit/max(1,n):5.1f} recall {100*hit/a:5.1f} uncovered labelled {unc}")
ok=[r for r in res if r[1]>0 and r[2]/r[1]>=0.97 and r[3]==0]
ok.sort(key=lambda r:(-r[2], r[1]))
print('\nchosen:', ok[0] if ok else 'none')
