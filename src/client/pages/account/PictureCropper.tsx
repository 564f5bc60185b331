import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useT } from '../../app/hooks';

/** The side of the square picture the cropper makes, as the server stores it. */
const OUT = 512;
const VIEW = 256;

/**
 * Crops a chosen image to a square in the browser (a canvas, no library): drag to move the
 * square, the slider zooms in. `onCrop` receives a PNG file of OUT pixels a side.
 */
export function PictureCropper({ file, busy, onCrop, onCancel }: { file: File; busy: boolean; onCrop: (f: File) => void; onCancel: () => void }) {
  const { t } = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [img, setImg] = useState<HTMLImageElement | null>(null);
  const [zoom, setZoom] = useState(1);
  // The centre of the square, as fractions of the image's width and height.
  const [centre, setCentre] = useState({ x: 0.5, y: 0.5 });
  const drag = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => setImg(image);
    image.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // The source square: its side is the image's shorter side divided by the zoom, kept inside the image.
  const square = (image: HTMLImageElement) => {
    const side = Math.min(image.naturalWidth, image.naturalHeight) / zoom;
    const sx = Math.min(Math.max(0, centre.x * image.naturalWidth - side / 2), image.naturalWidth - side);
    const sy = Math.min(Math.max(0, centre.y * image.naturalHeight - side / 2), image.naturalHeight - side);
    return { sx, sy, side };
  };

  useEffect(() => {
    const c = canvas.current?.getContext('2d');
    if (!img || !c) return;
    const { sx, sy, side } = square(img);
    c.clearRect(0, 0, VIEW, VIEW);
    c.drawImage(img, sx, sy, side, side, 0, 0, VIEW, VIEW);
  });

  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!drag.current || !img) return;
    const { side } = square(img);
    const scale = side / VIEW;
    const dx = ((e.clientX - drag.current.x) * scale) / img.naturalWidth;
    const dy = ((e.clientY - drag.current.y) * scale) / img.naturalHeight;
    drag.current = { x: e.clientX, y: e.clientY };
    setCentre((c) => ({ x: Math.min(1, Math.max(0, c.x - dx)), y: Math.min(1, Math.max(0, c.y - dy)) }));
  };

  const crop = () => {
    if (!img) return;
    const out = document.createElement('canvas');
    out.width = OUT;
    out.height = OUT;
    const { sx, sy, side } = square(img);
    out.getContext('2d')!.drawImage(img, sx, sy, side, side, 0, 0, OUT, OUT);
    out.toBlob((blob) => blob && onCrop(new File([blob], 'picture.png', { type: 'image/png' })), 'image/png');
  };

  return (
    <div className="card card-body picture-cropper" data-testid="picture-cropper">
      <h3 className="h6">{t('user:picture.crop')}</h3>
      <canvas
        ref={canvas}
        width={VIEW}
        height={VIEW}
        className="border rounded mx-auto d-block mw-100"
        style={{ cursor: 'move', touchAction: 'none' }}
        aria-label={t('user:picture.crop')}
        onPointerDown={(e) => {
          drag.current = { x: e.clientX, y: e.clientY };
          e.currentTarget.setPointerCapture(e.pointerId);
        }}
        onPointerMove={move}
        onPointerUp={() => (drag.current = null)}
      />
      <label className="form-label mt-2" htmlFor="picture-zoom">{t('user:picture.zoom')}</label>
      <input id="picture-zoom" type="range" className="form-range" min={1} max={4} step={0.05} value={zoom} onChange={(e) => setZoom(Number(e.target.value))} />
      <div className="d-flex gap-2 justify-content-end">
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onCancel} disabled={busy}>{t('modules:bootbox.cancel')}</button>
        <button type="button" className="btn btn-primary btn-sm" onClick={crop} disabled={!img || busy} data-testid="crop-save">{t('user:picture.crop-save')}</button>
      </div>
    </div>
  );
}
