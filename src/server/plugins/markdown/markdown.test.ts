import { describe, expect, it } from 'vitest';
import { createRenderer } from './index.js';

const render = createRenderer('https://forum.example.com/community');

const XSS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![img](javascript:alert(1))',
  '![img](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)',
  '<svg onload=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<style>body{display:none}</style>',
  '<object data="x.swf"></object>',
  '<div onclick="alert(1)">hi</div>',
  '<a href="https://ok.example" onmouseover="alert(1)">ok</a>',
  '[x](vbscript:msgbox(1))',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
];

describe('markdown renderer', () => {
  it.each(XSS)('leaves nothing executable in %s', (payload) => {
    const html = render(payload);
    expect(html).not.toMatch(/<script|<iframe|<object|<svg|<style|<math/i);
    // Escaped text (&lt;…) is harmless; look inside real tags only.
    expect(html).not.toMatch(/<[a-z][^>]*\son\w+\s*=/i);
    expect(html).not.toMatch(/<[a-z][^>]*(href|src)\s*=\s*"?\s*(javascript|vbscript|data):/i);
  });

  it('marks external links nofollow ugc noopener, leaves internal ones alone', () => {
    expect(render('[ext](https://elsewhere.example/page)')).toContain('rel="nofollow ugc noopener"');
    expect(render('[int](https://forum.example.com/community/topic/1)')).not.toContain('nofollow');
    expect(render('[rel](/topic/1)')).not.toContain('nofollow');
  });

  it('keeps the language class on fenced code', () => {
    const html = render('```js\nconst a = 1 < 2;\n```');
    expect(html).toContain('<code class="language-js">');
    expect(html).toContain('1 &lt; 2');
  });

  it('renders the usual markdown', () => {
    const html = render('# Title\n\n**bold** and _em_\n\n- a\n- b\n\n> quoted');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<li>a</li>');
    expect(html).toContain('<blockquote>');
  });

  it('keeps safe images with https sources', () => {
    expect(render('![cat](https://img.example/cat.png)')).toContain('<img src="https://img.example/cat.png" alt="cat" class="img-fluid"');
  });
});
