import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileTypeFromBuffer } from 'file-type';
import type { Metadata } from 'sharp';
import { badRequest } from '../../http/errors.js';
import { hashedName } from './storage.js';

/** Images that are decoded, resized and re-encoded (nothing of the original bytes is kept). */
const IMAGE_TYPES: Record<string, { ext: string; mime: string }> = {
  png: { ext: 'png', mime: 'image/png' },
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  gif: { ext: 'gif', mime: 'image/gif' },
  webp: { ext: 'webp', mime: 'image/webp' },
};
/** The extensions of the images a member's picture may be. */
export const PICTURE_EXTENSIONS: readonly string[] = Object.keys(IMAGE_TYPES);
/** Extensions that name the same type. */
const ALIASES: Record<string, string> = { jpeg: 'jpg', jpe: 'jpg', tif: 'tiff', htm: 'html' };
/** Types file-type cannot recognise (plain text): accepted by their extension when the bytes are text. */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  log: 'text/plain',
  json: 'application/json',
  svg: 'image/svg+xml',
};
/**
 * sharp (libvips) is loaded with the first image, not at start-up: it is some 14 MB of a
 * process's memory and 40–70 ms of its start, which a process that is never sent an image
 * need not pay.
 */
let sharpModule: Promise<typeof import('sharp').default> | undefined;
function loadSharp(): Promise<typeof import('sharp').default> {
  return (sharpModule ??= import('sharp').then(({ default: sharp }) => {
    // Every upload is a new image: libvips' operation cache would only hold memory (tens of MB) for nothing.
    sharp.cache(false);
    return sharp;
  }));
}

/** The thumbnail's width in pixels (NodeBB's topicThumbSize default). */
export const THUMB_WIDTH = 512;

/** The settings the processing reads. */
export interface UploadLimits {
  maximumFileSize: number;
  allowedFileExtensions: string;
  resizeImageWidth: number;
  maximumImagePixels: number;
}

/** A file ready to store: its bytes, content-hashed name, type and thumbnail. */
export interface ProcessedFile {
  name: string;
  path: string;
  bytes: Buffer;
  mime: string;
  width: number;
  height: number;
  isImage: boolean;
  thumb: { path: string; bytes: Buffer } | null;
}

/** The lower-case extension of a file name ('' when none), aliases folded (jpeg → jpg). */
export function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  const ext = m ? m[1]!.toLowerCase() : '';
  return ALIASES[ext] ?? ext;
}

/** The allowed extensions of the setting, aliases folded; images are always allowed (their privilege decides). */
export function allowedExtensions(setting: string): Set<string> {
  const set = new Set(Object.keys(IMAGE_TYPES));
  for (const raw of setting.split(',')) {
    const ext = raw.trim().replace(/^\./, '').toLowerCase();
    if (ext) set.add(ALIASES[ext] ?? ext);
  }
  return set;
}

/** True when the name is an image Palaver re-encodes (what needs upload:post:image rather than upload:post:file). */
export function isImageName(name: string): boolean {
  return extensionOf(name) in IMAGE_TYPES;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A file name as shown: no folders, no control characters, at most 255 characters. */
export function cleanName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f<>"]/g, '').trim();
  return (base || 'file').slice(-255);
}

function isUtf8Text(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a file by its bytes and prepares it for storage. The type comes from the bytes
 * (file-type), never from the name alone: the sniffed type must be allowed and agree with the
 * name's extension (a renamed executable is refused). Images are decoded with a pixel limit
 * (image bombs are refused before they are decoded), turned upright, scaled down to the
 * maximum width, re-encoded (which drops every metadata block: EXIF, GPS, XMP, ICC) and
 * get a WebP thumbnail. Throws a 400 with a translation key; stores nothing.
 */
export async function processFile(rawName: string, bytes: Buffer, limits: UploadLimits): Promise<ProcessedFile> {
  const name = cleanName(rawName);
  const allowed = allowedExtensions(limits.allowedFileExtensions);
  const claimed = extensionOf(name);
  const sniffed = await fileTypeFromBuffer(bytes);
  if (!sniffed) {
    // Only text formats have no signature: accepted when the name says so and the bytes are UTF-8 text.
    const mime = TEXT_TYPES[claimed];
    if (!mime || !allowed.has(claimed) || !isUtf8Text(bytes)) throw badRequest('error:invalid-file-type', [...allowed].join(', '));
    if (claimed === 'svg' && !/<svg[\s>]/i.test(bytes.toString('utf8'))) throw badRequest('error:invalid-image');
    return { name, path: hashedName('files', sha256(bytes), claimed), bytes, mime, width: 0, height: 0, isImage: claimed === 'svg', thumb: null };
  }
  const ext = ALIASES[sniffed.ext] ?? sniffed.ext;
  if (ext === 'xml' && claimed === 'svg' && allowed.has('svg') && /<svg[\s>]/i.test(bytes.toString('utf8'))) {
    return { name, path: hashedName('files', sha256(bytes), 'svg'), bytes, mime: 'image/svg+xml', width: 0, height: 0, isImage: true, thumb: null };
  }
  // The bytes decide: a PE or ELF renamed to .png, or a PNG renamed to .exe, is refused.
  if (!allowed.has(ext) || ext !== claimed) throw badRequest('error:invalid-file-type', [...allowed].join(', '));
  const image = IMAGE_TYPES[ext];
  if (!image) return { name, path: hashedName('files', sha256(bytes), ext), bytes, mime: sniffed.mime, width: 0, height: 0, isImage: false, thumb: null };
  return processImage(name, bytes, image, limits);
}

// Images decoded at once in this process: a burst of uploads waits its turn instead of holding
// every decoded image in memory at the same time (libvips already uses every core for one).
const MAX_IMAGE_JOBS = Math.max(1, Math.min(4, availableParallelism()));
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_IMAGE_JOBS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

function processImage(name: string, bytes: Buffer, type: { ext: string; mime: string }, limits: UploadLimits): Promise<ProcessedFile> {
  return inTurn(() => decodeImage(name, bytes, type, limits));
}

async function decodeImage(name: string, bytes: Buffer, type: { ext: string; mime: string }, limits: UploadLimits): Promise<ProcessedFile> {
  const animated = type.ext === 'gif' || type.ext === 'webp';
  const sharp = await loadSharp();
  const open = () => sharp(bytes, { limitInputPixels: limits.maximumImagePixels, failOn: 'error', animated });
  let meta: Metadata;
  try {
    // Only the header is read here (no pixel is decoded), so the limit is checked below, with a clear error.
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'error', animated }).metadata();
  } catch {
    throw badRequest('error:invalid-image');
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const pages = meta.pages ?? 1;
  // The header's dimensions are checked before any pixel is decoded (sharp's limit counts one frame).
  if (!width || !height || width * height * pages > limits.maximumImagePixels) throw badRequest('error:image-too-large', limits.maximumImagePixels);
  try {
    let pipeline = open().rotate().resize({ width: limits.resizeImageWidth, withoutEnlargement: true });
    if (type.ext === 'png') pipeline = pipeline.png();
    else if (type.ext === 'jpg') pipeline = pipeline.jpeg({ quality: 85, mozjpeg: false });
    else if (type.ext === 'gif') pipeline = pipeline.gif();
    else pipeline = pipeline.webp({ quality: 85 });
    // The thumbnail is made from the upload itself, in parallel: a JPEG is then decoded at a
    // fraction of its size (libjpeg's shrink-on-load), far cheaper than decoding the re-encoded image.
    const [{ data, info }, thumbBytes] = await Promise.all([
      pipeline.toBuffer({ resolveWithObject: true }),
      sharp(bytes, { animated: false, limitInputPixels: limits.maximumImagePixels, failOn: 'error' })
        .rotate()
        .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
        .webp({ quality: 80, effort: 2 })
        .toBuffer(),
    ]);
    const hash = sha256(data);
    return {
      name,
      path: hashedName('files', hash, type.ext),
      bytes: data,
      mime: type.mime,
      width: info.width,
      height: info.pageHeight ?? info.height,
      isImage: true,
      thumb: { path: hashedName('thumbs', hash, 'webp'), bytes: thumbBytes },
    };
  } catch {
    throw badRequest('error:invalid-image');
  }
}

/** A profile picture's side in pixels. */
export const PICTURE_SIZE = 512;

/** An image already processed (processFile), cropped square (cover) to PICTURE_SIZE; an animation keeps its first frame. */
export async function squarePicture(p: ProcessedFile): Promise<ProcessedFile> {
  const ext = p.path.slice(p.path.lastIndexOf('.') + 1);
  const sharp = await loadSharp();
  return inTurn(async () => {
    try {
      let pipeline = sharp(p.bytes, { animated: false, failOn: 'error' }).resize(PICTURE_SIZE, PICTURE_SIZE, { fit: 'cover', position: 'attention' });
      const out = ext === 'jpg' ? { ext, mime: 'image/jpeg' } : ext === 'webp' ? { ext, mime: 'image/webp' } : { ext: 'png', mime: 'image/png' };
      if (out.ext === 'jpg') pipeline = pipeline.jpeg({ quality: 85, mozjpeg: false });
      else if (out.ext === 'webp') pipeline = pipeline.webp({ quality: 85 });
      else pipeline = pipeline.png();
      const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
      return { ...p, path: hashedName('files', sha256(data), out.ext), bytes: data, mime: out.mime, width: info.width, height: info.height, thumb: null };
    } catch {
      throw badRequest('error:invalid-image');
    }
  });
}
