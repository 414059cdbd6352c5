#!/usr/bin/env python3
"""Functions longer than N lines (default 80) in the product's folders: top-level
definitions and methods defined in a class body alike, longest first.

    python3 scripts/long_functions.py [ROOT] [SHOW] [LIMIT]

prints the count, then the SHOW longest as (lines, file, line, signature). A
measure for reviews (issue #26 counts them), not a rule a test enforces: a long
switch over node kinds can be the clearest form."""
import os,re,sys
root=sys.argv[1] if len(sys.argv)>1 else '.'; lim=int(sys.argv[3]) if len(sys.argv)>3 else 80; res=[]
sig=re.compile(r'^( {0,2})(?![ }#/])(?!(namespace|struct|class|enum|union|case|if|for|while|switch|return|else|do)\b)[^=;]*[\w>)\]]\s*\([^;]*\)\s*(const\s*)?(override\s*)?(noexcept\s*)?(->\s*[\w:<>]+\s*)?(:.*)?\{$')
for d in ['frontend','ir','passes','backend','runtime','bundle','tools']:
    for dp,_,fs in os.walk(os.path.join(root,d)):
        for f in fs:
            if not f.endswith(('.cpp','.h','.c')): continue
            p=os.path.join(dp,f); L=open(p,errors='replace').read().split('\n')
            i=0
            while i<len(L):
                m=sig.match(L[i])
                if m:
                    ind=m.group(1); end=ind+'}'
                    j=i+1
                    while j<len(L) and L[j]!=end and not (L[j].startswith(ind+'}') and len(ind)==0 and L[j]=='}'): j+=1
                    n=j-i+1
                    if n>lim: res.append((n,p.replace(root+'/',''),i+1,L[i][:60]))
                    i=j
                i+=1
res.sort(reverse=True)
print(len(res))
for r in res[:int(sys.argv[2]) if len(sys.argv)>2 else 0]: print(r)
