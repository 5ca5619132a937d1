#!/usr/bin/env python3
"""A/B on the dev corpus at HIP 6.4: benchmarks that call *_sync warp
functions, translated with --hip-version 6.4, each unit compiled with the
golden hip64 command (no -DHIP_ENABLE_WARP_SYNC_BUILTINS), as written (with
cu2dcu's define) and with the define block removed (what the output was
before). Only the CUDA sides (NAME-cuda) are translated.

  sync_define_ab.py   (writes /tmp/sync64.json; the committed copy is
                       testsuite/results/hip64-warp-sync-define.json)"""
import json, os, re, subprocess, sys, shutil
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, 'testsuite', 'lib'))
import golden
C = os.path.join(REPO, '..', 'shared', 'corpus', 'hecbench')
TOOL = os.path.join(REPO, 'build', 'tool', 'main', 'cu2dcu')
PREFIX = os.path.join(REPO, 'build', 'hip-6.4')
W = '/tmp/sync64'
shutil.rmtree(W, ignore_errors=True)
pat = re.compile(r'__(shfl|shfl_down|shfl_xor|shfl_up|ballot|any|all)_sync')
grep = subprocess.run(['grep', '-rlE', pat.pattern, '--include=*.cu', '--include=*.cuh',
                       '--include=*.h', '.'], cwd=C, capture_output=True, text=True).stdout
names = sorted({p[2:].split('/')[0] for p in grep.split()} - {''})
names = [n for n in names if n.endswith('-cuda')]
GUARD = "#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS\n#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#endif\n"
res = {}
def compile(src, inc):
    cmd = golden.hip64_command('clang++-22', PREFIX, ['-I' + inc], src)
    return subprocess.run(cmd, capture_output=True, text=True).returncode == 0
for n in names:
    out = os.path.join(W, n)
    subprocess.run([TOOL, os.path.join(C, n), '-o', out, '--hip-version', '6.4', '--quiet',
                    '--fail-on=never', '--no-cache'], capture_output=True)
    units = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs if f.endswith('.cu')]
    with_def = sum(compile(u, os.path.dirname(u)) for u in units)
    stripped = 0
    for u in units:
        t = open(u).read()
        s = u + '.nodef.cu'
        open(s, 'w').write(t.replace(GUARD, ''))
        stripped += compile(s, os.path.dirname(u))
        os.remove(s)
    res[n] = {'units': len(units), 'ok_as_written': with_def, 'ok_without_define': stripped}
    print(n, res[n], flush=True)
tot = {k: sum(r[k] for r in res.values()) for k in ['units', 'ok_as_written', 'ok_without_define']}
json.dump({'benchmarks': res, 'total': tot}, open('/tmp/sync64.json', 'w'), indent=1)
print(tot)
