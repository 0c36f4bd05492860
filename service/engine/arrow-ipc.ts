/**
 * A page as an Arrow IPC stream (schema message, one record batch message, end of stream), encoded straight from its
 * columns' buffers with Arrow's own flatbuffer tables. Apache-arrow's RecordBatchStreamWriter gets there through
 * generic visitors, message objects and a byte queue, which took longer than building the page; this writes only the
 * types a page holds (see result.ts: Bool, Int32, Float64, Utf8, List and Struct of them) and refuses any other.
 */
import { Builder } from 'flatbuffers';
import { DataType, Type, type Data } from 'apache-arrow';
import { Bool as BoolType } from 'apache-arrow/fb/bool';
import { Buffer as BufferRegion } from 'apache-arrow/fb/buffer';
import { Endianness } from 'apache-arrow/fb/endianness';
import { Field as FieldTable } from 'apache-arrow/fb/field';
import { FieldNode } from 'apache-arrow/fb/field-node';
import { FloatingPoint } from 'apache-arrow/fb/floating-point';
import { Int } from 'apache-arrow/fb/int';
import { KeyValue } from 'apache-arrow/fb/key-value';
import { List } from 'apache-arrow/fb/list';
import { Message } from 'apache-arrow/fb/message';
import { MessageHeader } from 'apache-arrow/fb/message-header';
import { MetadataVersion } from 'apache-arrow/fb/metadata-version';
import { Precision } from 'apache-arrow/fb/precision';
import { RecordBatch } from 'apache-arrow/fb/record-batch';
import { Schema as SchemaTable } from 'apache-arrow/fb/schema';
import { Struct_ } from 'apache-arrow/fb/struct-';
import { Utf8 } from 'apache-arrow/fb/utf8';

const CONTINUATION = 0xffffffff;
const EMPTY = new Uint8Array(0);
const padded = (n: number): number => (n + 7) & ~7;

/** Writes a field's type table; its Arrow type id goes beside it as the union's type. */
function typeOffset(b: Builder, type: DataType): number {
  switch (type.typeId) {
    case Type.Bool:
      BoolType.startBool(b);
      return BoolType.endBool(b);
    case Type.Int: {
      const int = type as DataType<Type.Int> & { bitWidth: number; isSigned: boolean };
      Int.startInt(b);
      Int.addBitWidth(b, int.bitWidth);
      Int.addIsSigned(b, int.isSigned);
      return Int.endInt(b);
    }
    case Type.Float: {
      const float = type as DataType<Type.Float> & { precision: Precision };
      FloatingPoint.startFloatingPoint(b);
      FloatingPoint.addPrecision(b, float.precision);
      return FloatingPoint.endFloatingPoint(b);
    }
    case Type.Utf8:
      Utf8.startUtf8(b);
      return Utf8.endUtf8(b);
    case Type.List:
      List.startList(b);
      return List.endList(b);
    case Type.Struct:
      Struct_.startStruct_(b);
      return Struct_.endStruct_(b);
    default:
      throw new Error(`Arrow type ${Type[type.typeId]} is not one a page holds`);
  }
}

/** A column's name and type as the schema declares it (an apache-arrow Field is one). */
export interface ColumnField {
  name: string;
  type: DataType;
  nullable: boolean;
}

/** One record batch: its length and its columns' data, in the order of the fields. */
export interface ColumnBatch {
  length: number;
  columns: readonly Data[];
}

function fieldOffset(b: Builder, field: ColumnField): number {
  const fieldType = field.type;
  const type = typeOffset(b, fieldType);
  const children = FieldTable.createChildrenVector(
    b,
    (fieldType.children ?? []).map((child) => fieldOffset(b, child)),
  );
  const name = b.createString(field.name);
  FieldTable.startField(b);
  FieldTable.addType(b, type);
  FieldTable.addTypeType(b, fieldType.typeId as number);
  FieldTable.addChildren(b, children);
  FieldTable.addNullable(b, field.nullable);
  FieldTable.addName(b, name);
  return FieldTable.endField(b);
}

/** A message's flatbuffer with its header written by `header`. */
function messageOf(type: MessageHeader, bodyLength: number, header: (b: Builder) => number): Uint8Array {
  const b = new Builder(1024);
  const headerOffset = header(b);
  Message.startMessage(b);
  Message.addVersion(b, MetadataVersion.V5);
  Message.addHeaderType(b, type);
  Message.addHeader(b, headerOffset);
  Message.addBodyLength(b, BigInt(bodyLength));
  Message.finishMessageBuffer(b, Message.endMessage(b));
  return b.asUint8Array();
}

function schemaMessage(fields: readonly ColumnField[], metadata: ReadonlyMap<string, string>): Uint8Array {
  return messageOf(MessageHeader.Schema, 0, (b) => {
    const fieldsVector = SchemaTable.createFieldsVector(
      b,
      fields.map((f) => fieldOffset(b, f)),
    );
    const pairs = [...metadata].map(([key, value]) => {
      const k = b.createString(key);
      const v = b.createString(value);
      KeyValue.startKeyValue(b);
      KeyValue.addKey(b, k);
      KeyValue.addValue(b, v);
      return KeyValue.endKeyValue(b);
    });
    const custom = SchemaTable.createCustomMetadataVector(b, pairs);
    SchemaTable.startSchema(b);
    SchemaTable.addEndianness(b, Endianness.Little);
    SchemaTable.addFields(b, fieldsVector);
    SchemaTable.addCustomMetadata(b, custom);
    return SchemaTable.endSchema(b);
  });
}

function bytes(view: ArrayBufferView | null | undefined, byteLength: number): Uint8Array {
  return view ? new Uint8Array(view.buffer, view.byteOffset, byteLength) : EMPTY;
}

/** A message's bytes in the stream: continuation marker, length, the message padded to 8 bytes. */
const framedLength = (message: Uint8Array): number => 8 + padded(message.byteLength);

/** A column's field nodes and buffers in Arrow's depth-first order: validity, then its type's own buffers. */
function collect(data: Data, nodes: FieldNodeValues[], buffers: Uint8Array[]): void {
  if (data.offset !== 0) throw new Error('a sliced column cannot be written as it is');
  const bitmapBytes = (data.length + 7) >> 3;
  nodes.push({ length: data.length, nullCount: data.nullCount });
  buffers.push(data.nullCount > 0 ? bytes(data.nullBitmap, bitmapBytes) : EMPTY);
  switch (data.type.typeId) {
    case Type.Bool:
      buffers.push(bytes(data.values as Uint8Array, bitmapBytes));
      return;
    case Type.Int:
    case Type.Float: {
      const values = data.values as Int32Array | Float64Array;
      buffers.push(bytes(values, data.length * values.BYTES_PER_ELEMENT));
      return;
    }
    case Type.Utf8: {
      const offsets = data.valueOffsets as Int32Array;
      buffers.push(bytes(offsets, (data.length + 1) * 4), bytes(data.values as Uint8Array, offsets[data.length]!));
      return;
    }
    case Type.List:
      buffers.push(bytes(data.valueOffsets as Int32Array, (data.length + 1) * 4));
      collect(data.children[0]!, nodes, buffers);
      return;
    case Type.Struct:
      for (const child of data.children) collect(child, nodes, buffers);
      return;
    default:
      throw new Error(`Arrow type ${Type[data.type.typeId]} is not one a page holds`);
  }
}

interface FieldNodeValues {
  length: number;
  nullCount: number;
}

function recordBatchMessage(length: number, nodes: readonly FieldNodeValues[], buffers: readonly Uint8Array[]) {
  const bodyLength = buffers.reduce((n, buffer) => n + padded(buffer.byteLength), 0);
  const message = messageOf(MessageHeader.RecordBatch, bodyLength, (b) => {
    RecordBatch.startNodesVector(b, nodes.length);
    for (let i = nodes.length - 1; i >= 0; i--)
      FieldNode.createFieldNode(b, BigInt(nodes[i]!.length), BigInt(nodes[i]!.nullCount));
    const nodesVector = b.endVector();
    RecordBatch.startBuffersVector(b, buffers.length);
    let end = bodyLength;
    for (let i = buffers.length - 1; i >= 0; i--) {
      end -= padded(buffers[i]!.byteLength);
      BufferRegion.createBuffer(b, BigInt(end), BigInt(buffers[i]!.byteLength));
    }
    const buffersVector = b.endVector();
    RecordBatch.startRecordBatch(b);
    RecordBatch.addLength(b, BigInt(length));
    RecordBatch.addNodes(b, nodesVector);
    RecordBatch.addBuffers(b, buffersVector);
    return RecordBatch.endRecordBatch(b);
  });
  return { message, buffers };
}

/** Columns of `fields` as an Arrow IPC stream, `metadata` on its schema, a record batch message per batch. */
export function encodeArrowStream(
  fields: readonly ColumnField[],
  columnBatches: readonly ColumnBatch[],
  metadata: ReadonlyMap<string, string>,
): Uint8Array {
  const batches = columnBatches.map((batch) => {
    const nodes: FieldNodeValues[] = [];
    const buffers: Uint8Array[] = [];
    for (const column of batch.columns) collect(column, nodes, buffers);
    return recordBatchMessage(batch.length, nodes, buffers);
  });
  const schema = schemaMessage(fields, metadata);
  const size = batches.reduce(
    (n, { message, buffers }) =>
      n + framedLength(message) + buffers.reduce((m, buffer) => m + padded(buffer.byteLength), 0),
    framedLength(schema) + 8,
  );
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  const writeMessage = (message: Uint8Array): void => {
    view.setUint32(at, CONTINUATION, true);
    view.setInt32(at + 4, padded(message.byteLength), true);
    out.set(message, at + 8);
    at += framedLength(message);
  };
  writeMessage(schema);
  for (const { message, buffers } of batches) {
    writeMessage(message);
    for (const buffer of buffers) {
      out.set(buffer, at);
      at += padded(buffer.byteLength);
    }
  }
  view.setUint32(at, CONTINUATION, true);
  return out;
}
